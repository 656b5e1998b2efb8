import {
  ConflictError,
  isSessionRunning,
  NotFoundError,
  type PickupSession,
  type QueueEntry,
  type User,
  visitEndedError,
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

/**
 * The visit with this id, still in the queue, of the user's school. A visit
 * that ended answers 409 saying how (picked up, or already removed); an id
 * that never named a visit of this school answers 404.
 */
export const activeEntryOfSchool = async (user: User, id: string): Promise<QueueEntry> => {
  const visit = await queue.lookup(db, id);
  if (!visit || visit.entry.schoolId !== user.schoolId) throw new NotFoundError('Queue entry not found');
  if (visit.state !== 'active') throw visitEndedError(visit.entry, visit.state);
  return visit.entry;
};
