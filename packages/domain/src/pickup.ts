import * as z from 'zod';
import type { PlanEntry } from './dismissal-plans';
import type { StudentSummary, VehicleType } from './queue';

/** Classrooms, the teacher's view of students, and pickup codes (§3, §4, §5). */
export interface Classroom {
  id: number;
  schoolId: number;
  name: string;
  grade: string;
  teacherId: number | null;
  /** Deactivated classrooms leave the lists but stay for history. */
  active: boolean;
  /** The section it was imported from (Clever), if any. */
  cleverId?: string;
}

/**
 * Where a student of a session stands for the queue screens: released by a
 * teacher (sent out to the car line), picked up (their vehicle's pickup
 * completed), or both.
 */
export interface StudentMark {
  studentId: number;
  releasedAt: string | null;
  pickedUpAt: string | null;
}

/** A student as the teacher screen sees them during a session. */
export interface TeacherStudent extends StudentSummary {
  classroom: { id: number; name: string } | null;
  inQueue: boolean;
  /** The vehicle or bus that picks the student up, when registered. */
  vehicle: { type: VehicleType; number: string; parentName: string | null } | null;
  vehicleType: VehicleType | null;
  number: string | null;
  entryId: string | null;
  /** The version of that queue entry this view reflects (screens keep the newer of two copies). */
  entryVersion: number | null;
  queueStatus: 'waiting' | 'ready' | 'overflow' | null;
  queueTime: string | null;
  batchId: number | null;
  batchNumber: number | null;
  batchStatus: 'loading' | 'completed' | null;
  releasedAt: string | null;
  /** Who released the student this session (their username), when known. */
  releasedBy: string | null;
  /** When the student's vehicle's pickup completed this session; null while in the queue again. */
  pickedUpAt: string | null;
  /**
   * How the student goes home today (issue 52): the school's day, their weekly
   * plan overridden by an approved change (with the usual way and the note).
   */
  today: PlanEntry;
}

type ReadyKeys = Pick<TeacherStudent, 'batchId' | 'batchNumber' | 'queueStatus' | 'queueTime'>;

/** 0: in a loading batch; 1: called forward on its own (ready); 2: waiting or in overflow. */
const loadingRank = (student: ReadyKeys) =>
  student.batchId !== null ? 0 : student.queueStatus === 'ready' ? 1 : 2;

/**
 * The teacher's Ready list order (issue 50): the students whose car is being
 * loaded now first (in a loading batch, the longest-loading batch first, then
 * called forward on its own), each in arrival order; then the others, newest
 * arrival first (as the list was, so a car that just arrived shows near the top).
 */
export const readyOrder = <T extends ReadyKeys>(students: readonly T[]): T[] =>
  [...students].sort((a, b) => {
    const rank = loadingRank(a) - loadingRank(b);
    if (rank !== 0) return rank;
    const time = (a.queueTime ?? '').localeCompare(b.queueTime ?? '');
    if (loadingRank(a) === 2) return -time;
    return (a.batchNumber ?? 0) - (b.batchNumber ?? 0) || time;
  });

/** Batch status labels of the teacher screen. */
export const studentBatchLabel = (
  student: Pick<TeacherStudent, 'inQueue' | 'queueStatus' | 'batchNumber'>,
) => {
  if (!student.inQueue) return 'Not in pickup queue';
  if (student.queueStatus === 'overflow') return 'In overflow area';
  if (student.batchNumber !== null) return `In Batch #${student.batchNumber}`;
  return 'Waiting in queue';
};

/** Codes avoid look-alike characters (no 0/O, 1/I/L). */
export const PICKUP_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const PICKUP_CODE_LENGTH = 4;
export const PICKUP_CODE_TTL_MS = 10 * 60 * 1000;

export interface PickupCode {
  code: string;
  studentId: number;
  schoolId: number;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

export type PickupCodeState = 'active' | 'used' | 'expired';

export const pickupCodeState = (
  code: Pick<PickupCode, 'usedAt' | 'expiresAt'>,
  now = Date.now(),
): PickupCodeState => (code.usedAt ? 'used' : Date.parse(code.expiresAt) <= now ? 'expired' : 'active');

/** A new code may be made when none exists or the current one is used or expired. */
export const canGenerateCode = (current: Pick<PickupCode, 'usedAt' | 'expiresAt'> | null, now = Date.now()) =>
  current === null || pickupCodeState(current, now) !== 'active';

/** What a typed code becomes: trimmed, uppercased, at most 4 characters. */
export const normalizeCode = (raw: string) => raw.trim().toUpperCase().slice(0, PICKUP_CODE_LENGTH);

export const pickupCodeSchema = z
  .string({ message: 'Enter the 4-character pickup code' })
  .max(16, 'That is not a valid pickup code')
  .transform(normalizeCode)
  .pipe(
    z
      .string()
      .length(PICKUP_CODE_LENGTH, 'Enter the 4-character pickup code')
      .regex(new RegExp(`^[${PICKUP_CODE_ALPHABET}]+$`), 'That is not a valid pickup code'),
  );

/** Every code there can be: 31 characters in 4 places, 923,521 codes. */
export const PICKUP_CODE_SPACE = PICKUP_CODE_ALPHABET.length ** PICKUP_CODE_LENGTH;

/**
 * The budget of wrong pickup-code guesses (failed lookups and uses), kept per
 * school and per address (and per parent account): from one address, an
 * attacker may have at most a 1% chance per day of hitting an active code of
 * a given school.
 *
 * A wrong guess while a school has `a` codes active hits one of them with
 * chance a / 923,521. Each failed guess from an address is charged `a` units
 * (at least 1) against that school's budget of `unitsPerWindow` units per hour
 * for that address, and one unit is a chance of 1 / 923,521, so by the union
 * bound the chance of a hit in one day is at most 24 × 384 / 923,521 = 0.998%
 * whatever the number of active codes: with one active code, 384 wrong
 * guesses an hour are allowed; with 10, 38; with 100, 3. When an address has
 * spent a school's budget, that school's codes answer it as a wrong guess
 * would (so the answer reveals nothing); other addresses, and other schools'
 * codes, are not affected, and a valid code is never charged. A guess is
 * always let through while nothing is spent (`guessWithinBudget`), so a
 * school with more than 384 active codes still links them.
 */
const DAILY_HIT_CHANCE = 0.01;
const GUESS_WINDOW_MS = 60 * 60 * 1000;
const GUESS_WINDOWS_PER_DAY = (24 * 60 * 60 * 1000) / GUESS_WINDOW_MS;

export const CODE_GUESS_BUDGET = {
  /** At most this chance per day of any hit. */
  dailyChance: DAILY_HIT_CHANCE,
  windowMs: GUESS_WINDOW_MS,
  windowsPerDay: GUESS_WINDOWS_PER_DAY,
  /** Units per window: ⌊1% / 24 × 923,521⌋ = 384. */
  unitsPerWindow: Math.floor((DAILY_HIT_CHANCE / GUESS_WINDOWS_PER_DAY) * PICKUP_CODE_SPACE),
} as const;

/** What one wrong guess costs while `activeCodes` codes are active (its chance of a hit, in units of 1 / 923,521). */
export const wrongGuessCost = (activeCodes: number) => Math.max(1, Math.ceil(activeCodes));

/**
 * Whether a code of a school with `activeCodes` active codes may be found by an
 * address (or parent) that made `wrongGuesses` wrong guesses in the budget's
 * window: while those guesses' cost is under the budget.
 */
export const guessWithinBudget = (wrongGuesses: number, activeCodes: number) =>
  wrongGuesses * wrongGuessCost(activeCodes) < CODE_GUESS_BUDGET.unitsPerWindow;

/** Wrong guesses the budget lets through in one window while `activeCodes` codes are active. */
export const wrongGuessesPerWindow = (activeCodes: number) =>
  Math.floor(CODE_GUESS_BUDGET.unitsPerWindow / wrongGuessCost(activeCodes));

/**
 * The chance that an attacker who spends the whole budget every window for a
 * day hits at least one of `activeCodes` active codes (each guess a different code).
 */
export const dailyHitChance = (activeCodes: number) => {
  const guesses = wrongGuessesPerWindow(activeCodes) * CODE_GUESS_BUDGET.windowsPerDay;
  let miss = 1;
  for (let i = 0; i < guesses; i++) miss *= 1 - activeCodes / (PICKUP_CODE_SPACE - i);
  return 1 - miss;
};

/** A pickup code as the teacher screen shows it. */
export interface PickupCodeView {
  code: string;
  studentId: number;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}
/** What a code lookup tells before sign-in: the child's first name and last initial, the school. */
export interface CodeLookup {
  code: string;
  expiresAt: string;
  student: { firstName: string; lastInitial: string } | null;
  schoolName: string | null;
}
/** A parent linked to a child by a code. */
export interface LinkResult {
  linked: true;
  student: { id: number; firstName: string; lastName: string; grade: string } | null;
}
