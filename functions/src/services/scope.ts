import {
  ConflictError,
  isSessionRunning,
  NotFoundError,
  type PickupSession,
  type QueueEntry,
  type User,
  visitEndedError,
} from '@curbside/domain';
import { type KeyedRead, keyedReads, pickupSessions, queue, type Visit } from '@curbside/store';
import { knownSchoolOf, type SignInRead } from '../lib/auth';
import { db } from '../lib/context';
import { earlyOr } from '../lib/early-read';
import { remember } from '../lib/remember';

/** A session of the user's own school; another school's answers 404. */
export const sessionOfSchool = async (user: User, sessionId: number): Promise<PickupSession> =>
  ofSchool(user, sessionId, await pickupSessions.get(db, sessionId));

/** As `sessionOfSchool`, for the session as already read (`undefined`: no session has that id). */
export const ofSchool = (
  user: User,
  sessionId: number,
  session: PickupSession | undefined,
): PickupSession => {
  if (session) remember(schoolOfSession, sessionId, session.schoolId, SCHOOLS_OF_SESSIONS_KEPT);
  if (!session || session.schoolId !== user.schoolId) throw new NotFoundError('Session not found');
  return session;
};

/**
 * Each session's school as this instance has read it: a session never moves
 * to another school, so a read that only checks whose a session is (a poll
 * of the queue, the alerts, the batches) need not read it again.
 */
const schoolOfSession = new Map<number, number>();
const SCHOOLS_OF_SESSIONS_KEPT = 2_000;

/** The school this instance has read the session to be of. */
export const knownSchoolOfSession = (sessionId: number): number | undefined => schoolOfSession.get(sessionId);

/**
 * Throws as `sessionOfSchool` does when the session is not of the user's
 * school, without reading it when this instance already knows its school.
 */
export const assertSessionOfSchool = async (user: User, sessionId: number): Promise<void> => {
  const known = schoolOfSession.get(sessionId);
  if (known === undefined) await sessionOfSchool(user, sessionId);
  else if (known !== user.schoolId) throw new NotFoundError('Session not found');
};

/**
 * Per school, the id of the running session this instance last found active
 * (`activeSessionOf`, a parent's poll): which session to read first, never
 * whether it runs.
 */
const runningSessionIds = new Map<number, number>();
const SCHOOLS_KEPT = 2_000;

/** The school's running session as this instance last found it. */
export const knownRunningSession = (schoolId: number): number | undefined => runningSessionIds.get(schoolId);

/** What a read found the school's running session to be (undefined: none runs). */
export const noteRunningSession = (schoolId: number, sessionId: number | undefined): void => {
  if (sessionId === undefined) runningSessionIds.delete(schoolId);
  else remember(runningSessionIds, schoolId, sessionId, SCHOOLS_KEPT);
};

/**
 * The school's running session as this instance knows it, as a keyed read
 * (strongly consistent, as `activeSessionOf`'s), for `activeSessionOf`'s
 * `readFirst`: none to read when it knows none.
 */
export const knownSessionRead = (schoolId: number): KeyedRead<{ session: PickupSession | undefined }> => {
  const known = knownRunningSession(schoolId);
  return known === undefined
    ? keyedReads.none({ session: undefined })
    : keyedReads.map(pickupSessions.keyed(known), (session) => ({ session }));
};

/**
 * The school's active session, as `pickupSessions.active` answers it, in one
 * round trip when this instance knows its id (issue 33): a session still
 * running is the school's only active one. Otherwise (none known, or it
 * ended) the school's active session is read as before.
 */
export const activeSessionOf = async (
  schoolId: number,
  /** The known running session as a read made already found it (`knownSessionRead`). */
  readFirst?: { session: PickupSession | undefined },
): Promise<PickupSession | undefined> => {
  const known = knownRunningSession(schoolId);
  if (readFirst !== undefined || known !== undefined) {
    const session = readFirst ? readFirst.session : await pickupSessions.get(db, known as number);
    if (session?.schoolId === schoolId && isSessionRunning(session)) return session;
  }
  const session = await pickupSessions.active(db, schoolId);
  noteRunningSession(schoolId, session && isSessionRunning(session) ? session.id : undefined);
  return session;
};

export const runningSession = async (user: User, sessionId: number) =>
  runningOf(user, sessionId, await pickupSessions.get(db, sessionId));

/** As `runningSession`, for the session as already read (`undefined`: no session has that id). */
export const runningOf = (user: User, sessionId: number, read: PickupSession | undefined): PickupSession => {
  const session = ofSchool(user, sessionId, read);
  if (!isSessionRunning(session))
    throw new ConflictError('This session has ended. Start a new session first.');
  return session;
};

/**
 * A change's first read, the entry's visit as it stands, started beside the
 * caller's sign-in (a route's `EarlyReads`, ADR 0027) for a staff member this
 * instance signed in at a school; none otherwise.
 */
export const earlyEntry = (userId: number, { params }: { params: { id: string } }, signIn: SignInRead) =>
  knownSchoolOf(userId) === undefined ? undefined : signIn(queue.keyedLookup(params.id));

/**
 * The visit with this id, still in the queue, of the user's school. A visit
 * that ended answers 409 saying how (picked up, or already removed); an id
 * that never named a visit of this school answers 404.
 */
export const activeEntryOfSchool = async (
  user: User,
  id: string,
  early?: Promise<Visit | undefined>,
): Promise<QueueEntry> => {
  // The read started beside the sign-in (`entryRead`), or again should it have failed.
  const visit = await earlyOr(early, () => queue.lookup(db, id));
  if (!visit || visit.entry.schoolId !== user.schoolId) throw new NotFoundError('Queue entry not found');
  if (visit.state !== 'active') throw visitEndedError(visit.entry, visit.state);
  return visit.entry;
};
