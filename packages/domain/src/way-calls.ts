import { NotComingError } from './errors';
import type { NotCalledStudent, QueueEntry, StudentSummary, VehicleType } from './queue';
import { type DayWay, type WayMode, type WayOptions, wayText } from './ways';

/**
 * The whole dismissal by way home (issue 52, docs/adr/0022): who a vehicle's
 * visit calls today, why a child is not called, the teacher screen's groups,
 * a bus's state at the curb and the releases by way home. Without zod, so the
 * queue screens' first load can use it.
 */

/**
 * A child's way home on a day as these rules read it (`PlanEntry` of
 * `dismissal-plans.ts`, named apart so the queue's modules need not import zod's schemas).
 */
interface DayEntry {
  way: DayWay;
  source: 'default' | 'change';
  usual?: DayWay;
}

/** Why a child whose way home today is `way` is not called with a vehicle. */
export const notCalledReason = (way: DayWay, options: WayOptions): string =>
  way.mode === 'absent' ? 'Absent today' : `${wayText(way, options)} today`;

/**
 * Whether a child whose way home today is `way` goes home in this vehicle: a
 * car calls its car riders (whose way names no car, or this one); a bus, the
 * children whose way is this bus.
 */
export const calledWith = (way: DayWay, vehicle: { id: number; type: VehicleType }): boolean =>
  vehicle.type === 'car'
    ? way.mode === 'car' && (way.vehicleId === undefined || way.vehicleId === vehicle.id)
    : way.mode === 'bus' && way.vehicleId === vehicle.id;

/** A student as a visit names them (no more than the record keeps). */
export const summaryOf = ({
  id,
  firstName,
  lastName,
  grade,
  classroomId,
}: StudentSummary): StudentSummary => ({
  id,
  firstName,
  lastName,
  grade,
  classroomId,
});

/**
 * Who a vehicle's visit calls today, of `candidates`: for a car, the children
 * it is registered with and those changed to it today; for a bus, the riders
 * its weekly plans give it today and those changed to it. Each is called when
 * their way home today (`ways`; a child without an entry is a car rider) goes
 * with this vehicle; the others are not called, with the reason.
 */
export const callsOf = (
  vehicle: { id: number; type: VehicleType },
  candidates: readonly StudentSummary[],
  ways: ReadonlyMap<number, Pick<DayEntry, 'way'>>,
  options: WayOptions,
): { called: StudentSummary[]; notCalled: NotCalledStudent[] } => {
  const called: StudentSummary[] = [];
  const notCalled: NotCalledStudent[] = [];
  const seen = new Set<number>();
  for (const student of candidates) {
    if (seen.has(student.id)) continue;
    seen.add(student.id);
    const way = ways.get(student.id)?.way ?? { mode: 'car' };
    if (calledWith(way, vehicle)) called.push(summaryOf(student));
    else notCalled.push({ ...summaryOf(student), way, reason: notCalledReason(way, options) });
  }
  return { called, notCalled };
};

/** Names shown in a question before "and N more". */
const NAMED_AT_MOST = 4;

/**
 * A car none of whose children goes home in it today:
 * "Nobody in Car 112 goes home in it today (Ava Smith: Absent today; Leo Chen:
 * Bus B3 today). Queue it anyway?"
 */
export const notComingQuestion = (vehicle: string, notCalled: readonly NotCalledStudent[]): string => {
  const named = notCalled
    .slice(0, NAMED_AT_MOST)
    .map((student) => `${student.firstName} ${student.lastName}: ${student.reason}`);
  const more = notCalled.length - named.length;
  const list = more > 0 ? [...named, `${more} more`] : named;
  return `Nobody in ${vehicle} goes home in it today (${list.join('; ')}). Queue it anyway?`;
};

/** The 409 of a car none of whose children goes home in it today, unless the staff queue it anyway. */
export const notComingError = (vehicle: string, notCalled: NotCalledStudent[]) =>
  new NotComingError(notComingQuestion(vehicle, notCalled), notCalled);

/** The children a visit does not call (none on visits queued before issue 52). */
export const notCalledOf = (entry: Pick<QueueEntry, 'notCalled'>): NotCalledStudent[] =>
  entry.notCalled ?? [];

// ---------------------------------------------------------------------------
// The teacher screen by way home

/** The teacher screen's groups, in order. */
export const WAY_GROUPS = [
  { key: 'car', title: 'Car riders' },
  { key: 'bus', title: 'Bus riders' },
  { key: 'walker', title: 'Walkers' },
  { key: 'program', title: 'Programs' },
  { key: 'absent', title: 'Absent' },
] as const satisfies ReadonlyArray<{ key: WayMode; title: string }>;

/** Students counted per way home today (a student without a known way: car). */
export const countByWay = (students: ReadonlyArray<{ today?: Pick<DayEntry, 'way'> | null }>) => {
  const counts: Record<WayMode, number> = { car: 0, bus: 0, walker: 0, program: 0, absent: 0 };
  for (const student of students) counts[student.today?.way.mode ?? 'car']++;
  return counts;
};

/** "Changed today: Bus B3 → Kids Club" for a child whose way today is a change's; null otherwise. */
export const changedTodayText = (entry: DayEntry | null | undefined, options: WayOptions): string | null =>
  entry?.source === 'change'
    ? `Changed today: ${wayText(entry.usual ?? { mode: 'car' }, options)} → ${wayText(entry.way, options)}`
    : null;

/** A bus at the curb, as its riders' teachers see it: not here, arrived (waiting), loading (batched or called). */
export type BusState = 'not here' | 'arrived' | 'loading';
export const BUS_STATE_TEXT: Record<BusState, string> = {
  'not here': 'Not here',
  arrived: 'Arrived',
  loading: 'Loading',
};

export const busStateOf = (entry: Pick<QueueEntry, 'status' | 'batchId'> | undefined): BusState => {
  if (!entry || entry.status === 'completed') return 'not here';
  return entry.batchId !== null || entry.status === 'ready' ? 'loading' : 'arrived';
};

/** What the riders' teachers are told while their bus is at the curb. */
export const busLoadingText = (busNumber: string) => `Bus B${busNumber} is loading — send its riders`;

// ---------------------------------------------------------------------------
// Releases by way home: walkers, a bus's riders, a program's children

/** What one press releases: the walkers, a bus's riders or a program's children of some classrooms. */
export type WayRelease =
  | { mode: 'walker' }
  | { mode: 'bus'; vehicleId: number }
  | { mode: 'program'; programId: number };

/** Whether a child whose way home today is `way` is released by `release`. */
export const releasedBy = (way: DayWay, release: WayRelease): boolean =>
  way.mode === release.mode &&
  (release.mode !== 'bus' || (way as { vehicleId: number }).vehicleId === release.vehicleId) &&
  (release.mode !== 'program' || (way as { programId: number }).programId === release.programId);

/** A release by way home as the record and the screens name it: the way, and its name then (`Bus B3`, `Kids Club`). */
export type ReleasedWay = WayRelease & { name: string };

/** The answer of a release by way home: the students released by this press (none twice). */
export interface WayReleaseAnswer {
  released: number[];
}

/** "Send to Kids Club", "Release walkers", "Release riders": the one-tap texts. */
export const RELEASE_WALKERS = 'Release walkers';
export const RELEASE_RIDERS = 'Release riders';
export const sendToProgramText = (programName: string) => `Send to ${programName}`;

/** A toast's word for what a press did. */
export const releasedText = (count: number, what: 'walker' | 'rider' | 'student') =>
  count === 0 ? `No ${what}s left to release` : `Released ${count} ${count === 1 ? what : `${what}s`}`;

// ---------------------------------------------------------------------------
// A bus's riders and a program's list for a day

/** `GET /api/buses/{id}/riders?date=`. */
export interface BusRiders {
  date: string;
  vehicleId: number;
  number: string;
  /** The students whose way home that day is this bus (with their classroom's name). */
  riders: Array<StudentSummary & { classroom: string | null }>;
  /** Its usual riders (by their weekly plans) who go another way that day, and why. */
  notRiding: NotCalledStudent[];
}

/** One child of a program's list for a day: sent by their teacher, checked in by the program's staff. */
export interface ProgramStudent extends StudentSummary {
  classroom: string | null;
  /** When and by whom they were released (today's session only). */
  releasedAt: string | null;
  releasedBy: string | null;
  checkedInAt: string | null;
  checkedInBy: string | null;
  /** A change's note when the child is at the program by a change that day (''/absent otherwise). */
  note?: string;
}

/** `GET /api/programs/{id}/students?date=`. */
export interface ProgramList {
  date: string;
  program: { id: number; name: string; location: string | null };
  students: ProgramStudent[];
}

/** A check-in at a program (`PUT /api/students/{id}/program-check-in`); null after an undo. */
export interface ProgramCheckIn {
  programId: number;
  studentId: number;
  date: string;
  checkedInAt: string | null;
  checkedInBy: string | null;
}
