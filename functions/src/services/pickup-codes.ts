import { randomInt } from 'node:crypto';
import {
  CODE_GUESS_BUDGET,
  ConflictError,
  canGenerateCode,
  guessWithinBudget,
  NOT_YOUR_CLASS_CODE,
  NotFoundError,
  PICKUP_CODE_ALPHABET,
  PICKUP_CODE_LENGTH,
  PICKUP_CODE_TTL_MS,
  type PickupCode,
  pickupCodeState,
  TooManyRequestsError,
  type User,
} from '@curbside/domain';
import { parents, pickupCodes, schools, students, throttle } from '@curbside/store';
import { assertSchoolWritable } from '../lib/auth';
import { db } from '../lib/context';
import { assertReachesFamily, ownSchoolId } from './tenancy';

/**
 * Pickup codes: 4 characters without look-alikes (31^4 = 923,521 codes),
 * unique among active codes, valid for 10 minutes, used once. Failed lookups
 * and uses are limited per address and per parent (so one person's typos end
 * in a short wait), and per school by the guessing budget of the domain
 * (`CODE_GUESS_BUDGET`: from one address, under a 1% chance per day of
 * hitting an active code of a school). No one's wrong guesses stop another
 * address's lookups, and a valid code is never charged.
 */
export const CODE_GUESS_LIMIT = { windowMs: 10 * 60 * 1000, failures: 10 } as const;

/** A school's codes issued per code lifetime: those of this window and the last bound its codes active now. */
const issued = (schoolId: number) => `code#issued#${schoolId}`;
/** Wrong guesses of an address or parent (`ip#…`, `parent#…`) in the budget's window and the one before. */
const wrongGuesses = (who: string) => `code#wrong#${who}`;

const randomCode = () =>
  Array.from(
    { length: PICKUP_CODE_LENGTH },
    () => PICKUP_CODE_ALPHABET[randomInt(PICKUP_CODE_ALPHABET.length)],
  ).join('');

/**
 * A student of the caller's school whose codes the caller may make and read:
 * school admins and above any, staff below them those of the classrooms they
 * teach (403 otherwise, issue 49).
 */
const studentOfSchool = async (user: User, studentId: number) => {
  const schoolId = ownSchoolId(user);
  const [student] = await students.getMany(db, schoolId, [studentId]);
  if (!student) throw new NotFoundError('Student not found');
  await assertReachesFamily(user, student, NOT_YOUR_CLASS_CODE);
  return student;
};

const view = ({ code, expiresAt, usedAt, studentId, createdAt }: PickupCode) => ({
  code,
  studentId,
  createdAt,
  expiresAt,
  usedAt,
});

/** The student's current code, or null. */
export const currentCode = async (user: User, studentId: number) => {
  const student = await studentOfSchool(user, studentId);
  const code = await pickupCodes.currentFor(db, student.schoolId, student.id);
  return code ? view(code) : null;
};

/** Makes a new code when none exists or the current one is used or expired. */
export const generateCode = async (user: User, studentId: number) => {
  const student = await studentOfSchool(user, studentId);
  const { code: current, pointer } = await pickupCodes.current(db, student.schoolId, student.id);
  const alreadyActive = new ConflictError(`${student.firstName} already has an active pickup code`);
  if (!canGenerateCode(current ?? null)) throw alreadyActive;
  for (let attempt = 0; attempt < 20; attempt++) {
    const now = Date.now();
    const code: PickupCode = {
      code: randomCode(),
      studentId: student.id,
      schoolId: student.schoolId,
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + PICKUP_CODE_TTL_MS).toISOString(),
      usedAt: null,
    };
    const outcome = await pickupCodes.claim(db, code, pointer);
    if (outcome === 'claimed') {
      await throttle.count(db, issued(student.schoolId), PICKUP_CODE_TTL_MS);
      return view(code);
    }
    // Someone else gave the student a code meanwhile: theirs is the active one.
    if (outcome === 'raced') throw alreadyActive;
  }
  throw new ConflictError('Could not find a free pickup code. Please try again.');
};

/** Why a code cannot be used, as the invite page and parent portal show it. */
const refusal = (code: PickupCode | undefined) => {
  if (!code) return new NotFoundError('Invalid or expired code');
  const state = pickupCodeState(code);
  if (state === 'used') return new ConflictError('This pickup code has already been used');
  if (state === 'expired') return new ConflictError('This pickup code has expired');
  return undefined;
};

/**
 * Whether everyone guessing (`who`: the address, and the parent) is within
 * the budget of the code's school: their wrong guesses, each charged the
 * school's active codes, under the hour's units.
 */
const withinBudget = async (who: readonly string[], schoolId: number) => {
  const [activeCodes, ...guessed] = await Promise.all([
    throttle.recent(db, issued(schoolId), PICKUP_CODE_TTL_MS),
    ...who.map((scope) => throttle.recent(db, wrongGuesses(scope), CODE_GUESS_BUDGET.windowMs)),
  ]);
  return guessed.every((count) => guessWithinBudget(count, activeCodes ?? 0));
};

/**
 * The code someone (`who`: `ip#{address}`, and `parent#{id}` when signed in)
 * looks up or uses, if it works for them. Each attempt is counted against
 * their own limit before the code is read (so guesses sent all at once are
 * limited too), and given back when the code works. A code of a school whose
 * budget they spent answers as a wrong guess would; every failure is charged
 * to their budget.
 */
const attempt = async (who: readonly string[], code: string): Promise<PickupCode> => {
  const own = await throttle.reserve(
    db,
    who.map((scope) => ({ scope: `code#${scope}`, limit: CODE_GUESS_LIMIT.failures })),
    CODE_GUESS_LIMIT.windowMs,
  );
  if (!own.allowed)
    throw new TooManyRequestsError('Too many invalid codes. Please wait 10 minutes and try again.');
  const found = await pickupCodes.get(db, code);
  const error = refusal(found);
  if (!error && found && (await withinBudget(who, found.schoolId))) {
    await own.release();
    return found;
  }
  await Promise.all(who.map((scope) => throttle.count(db, wrongGuesses(scope), CODE_GUESS_BUDGET.windowMs)));
  throw error ?? new NotFoundError('Invalid or expired code');
};

/** What an invite link shows before sign-in: whose code it is, and whether it still works. */
export const lookupCode = async (code: string, address: string) => {
  const found = await attempt([`ip#${address}`], code);
  const [[student], school] = await Promise.all([
    students.getMany(db, found.schoolId, [found.studentId]),
    schools.get(db, found.schoolId),
  ]);
  return {
    code: found.code,
    expiresAt: found.expiresAt,
    student: student ? { firstName: student.firstName, lastInitial: student.lastName.charAt(0) } : null,
    schoolName: school?.name ?? null,
  };
};

/** A signed-in parent uses a code: the code is spent and the parent linked to the child. */
export const useCode = async (parent: User, code: string, address: string) => {
  const found = await attempt([`ip#${address}`, `parent#${parent.id}`], code);
  // A link is a write into the child's school: none while it is in sandbox mode (the code stays unused).
  await assertSchoolWritable(found.schoolId);
  if (!(await pickupCodes.use(db, found, parent.id))) {
    throw (
      refusal(await pickupCodes.get(db, code)) ?? new ConflictError('This pickup code has already been used')
    );
  }
  const [[student]] = await Promise.all([
    students.getMany(db, found.schoolId, [found.studentId]),
    // The parent joins the school's parents list with this child.
    parents.joinSchool(db, parent.id, found.schoolId, found.studentId),
  ]);
  return {
    linked: true,
    student: student
      ? { id: student.id, firstName: student.firstName, lastName: student.lastName, grade: student.grade }
      : null,
  };
};
