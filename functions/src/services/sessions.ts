import {
  ConflictError,
  isSessionRunning,
  NotFoundError,
  type PickupSession,
  type SessionInput,
  type User,
} from '@curbside/domain';
import { pickupSessions } from '@curbside/store';
import { db } from '../lib/context';
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
  try {
    return await pickupSessions.create(db, fields);
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    // The slot may still be held by a session whose end time passed before
    // the scheduled auto-end ran: end it now, then try once more.
    const current = await pickupSessions.active(db, schoolId);
    if (!current || isSessionRunning(current)) throw error;
    await pickupSessions.end(db, current);
    return pickupSessions.create(db, fields);
  }
};

export const endSession = async (user: User, id: number): Promise<PickupSession> => {
  const session = await pickupSessions.get(db, id);
  if (!session || session.schoolId !== user.schoolId) throw new NotFoundError('Session not found');
  if (session.status !== 'active') throw new ConflictError('This session has already ended');
  const ended = await pickupSessions.end(db, session);
  if (!ended) throw new ConflictError('This session has already ended');
  return ended;
};

/** Ends every session past its end time: one Query on the running-sessions index. */
export const endOverdueSessions = async (now = new Date()): Promise<number> => {
  const overdue = await pickupSessions.overdue(db, now);
  const ended = await Promise.all(
    overdue.map((session) => pickupSessions.end(db, session, now.toISOString())),
  );
  return ended.filter(Boolean).length;
};
