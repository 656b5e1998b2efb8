import {
  ConflictError,
  isSessionRunning,
  NotFoundError,
  type PickupSession,
  type QueueEntry,
  type User,
} from '@curbside/domain';
import { pickupSessions, queue } from '@curbside/store';
import { db } from '../lib/context';

/** A session of the user's own school; another school's answers 404. */
export const sessionOfSchool = async (user: User, sessionId: number): Promise<PickupSession> => {
  const session = await pickupSessions.get(db, sessionId);
  if (!session || session.schoolId !== user.schoolId) throw new NotFoundError('Session not found');
  return session;
};

export const runningSession = async (user: User, sessionId: number) => {
  const session = await sessionOfSchool(user, sessionId);
  if (!isSessionRunning(session))
    throw new ConflictError('This session has ended. Start a new session first.');
  return session;
};

/** An active entry of the user's school. */
export const entryOfSchool = async (user: User, id: string): Promise<QueueEntry> => {
  const entry = await queue.get(db, id);
  if (!entry || entry.schoolId !== user.schoolId) throw new NotFoundError('Queue entry not found');
  return entry;
};
