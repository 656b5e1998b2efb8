import { channels } from '@curbside/api';
import {
  ConflictError,
  isSessionRunning,
  NotFoundError,
  type PickupSession,
  SCHEDULE,
  type SessionInput,
  type User,
} from '@curbside/domain';
import { pickupSessions } from '@curbside/store';
import { connectionsDb, db } from '../lib/context';
import { publishToChannel } from './publish';
import { recording, recordingBy } from './record';
import { ownSchoolId } from './tenancy';

/** The school's running session, or null (a session past its end time is not running). */
export const activeSession = async (user: User): Promise<PickupSession | null> => {
  if (user.schoolId === null) return null;
  const session = await pickupSessions.active(db, user.schoolId);
  return session && isSessionRunning(session) ? session : null;
};

export const listSessions = async (user: User): Promise<PickupSession[]> =>
  user.schoolId === null ? [] : pickupSessions.listBySchool(db, user.schoolId);

/**
 * Tells every staff screen of the school that a session started or ended
 * (issue 50): the staff channel, which every signed-in staff connection
 * joins whatever it follows, so a screen with no session hears of a new one.
 * Told after the change committed; a failed fan-out is logged (screens read
 * the session again on a reconnect, and at its end time). Through `publish.ts`
 * alone: the schedule's bundle need not carry the car line's publishing.
 */
const tellStaff = (session: PickupSession) =>
  publishToChannel(channels.staff(session.schoolId), {
    type: session.status === 'active' ? 'SESSION_STARTED' : 'SESSION_ENDED',
    data: { schoolId: session.schoolId, session },
  });

/** Starts a session; 409 while another one is running for the school. */
export const createSession = async (user: User, input: SessionInput): Promise<PickupSession> => {
  const started = await startSession(user, input);
  await tellStaff(started);
  return started;
};

const startSession = async (user: User, input: SessionInput): Promise<PickupSession> => {
  const schoolId = ownSchoolId(user);
  const fields = {
    schoolId,
    name: input.name.trim(),
    type: input.type,
    startTime: new Date(input.startTime).toISOString(),
    endTime: new Date(input.endTime).toISOString(),
    notes: input.notes?.trim() || null,
  };
  const record = await recordingBy(user, schoolId);
  try {
    return await pickupSessions.create(db, fields, record, connectionsDb());
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    // The slot may still be held by a session whose end time passed before
    // the scheduled auto-end ran: end it now, then try once more.
    const current = await pickupSessions.active(db, schoolId);
    if (!current || isSessionRunning(current)) throw error;
    const ended = await pickupSessions.end(db, current, await recording(SCHEDULE, schoolId));
    if (ended) await tellStaff(ended);
    return pickupSessions.create(db, fields, record, connectionsDb());
  }
};

export const endSession = async (user: User, id: number): Promise<PickupSession> => {
  const session = await pickupSessions.get(db, id);
  if (!session || session.schoolId !== user.schoolId) throw new NotFoundError('Session not found');
  if (session.status !== 'active') throw new ConflictError('This session has already ended');
  const ended = await pickupSessions.end(db, session, await recordingBy(user, session.schoolId));
  if (!ended) throw new ConflictError('This session has already ended');
  await tellStaff(ended);
  return ended;
};

/** Ends every session past its end time (one Query on the running-sessions index), and tells each school's staff. */
export const endOverdueSessions = async (now = new Date()): Promise<number> => {
  const overdue = await pickupSessions.overdue(db, now);
  const ended = await Promise.all(
    overdue.map(async (session) => {
      const done = await pickupSessions.end(
        db,
        session,
        await recording(SCHEDULE, session.schoolId),
        now.toISOString(),
      );
      if (done) await tellStaff(done);
      return done;
    }),
  );
  return ended.filter(Boolean).length;
};
