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
import { db } from '../lib/context';
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

/** Starts a session; 409 while another one is running for the school. */
export const createSession = async (user: User, input: SessionInput): Promise<PickupSession> => {
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
    return await pickupSessions.create(db, fields, record);
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    // The slot may still be held by a session whose end time passed before
    // the scheduled auto-end ran: end it now, then try once more.
    const current = await pickupSessions.active(db, schoolId);
    if (!current || isSessionRunning(current)) throw error;
    await pickupSessions.end(db, current, await recording(SCHEDULE, schoolId));
    return pickupSessions.create(db, fields, record);
  }
};

export const endSession = async (user: User, id: number): Promise<PickupSession> => {
  const session = await pickupSessions.get(db, id);
  if (!session || session.schoolId !== user.schoolId) throw new NotFoundError('Session not found');
  if (session.status !== 'active') throw new ConflictError('This session has already ended');
  const ended = await pickupSessions.end(db, session, await recordingBy(user, session.schoolId));
  if (!ended) throw new ConflictError('This session has already ended');
  return ended;
};

/** Ends every session past its end time: one Query on the running-sessions index. */
export const endOverdueSessions = async (now = new Date()): Promise<number> => {
  const overdue = await pickupSessions.overdue(db, now);
  const ended = await Promise.all(
    overdue.map(async (session) =>
      pickupSessions.end(db, session, await recording(SCHEDULE, session.schoolId), now.toISOString()),
    ),
  );
  return ended.filter(Boolean).length;
};
