import { type CarLineEvent, channels, type LiveEvent } from '@curbside/api';
import { eventSequence } from '@curbside/store';
import { db } from '../lib/context';
import { live } from '../lib/live';
import { log } from '../lib/log';

/**
 * Sends a committed change to a channel, stamped with `sentAt` (now: callers
 * publish right after the change committed). The change has already happened,
 * so a failed fan-out is logged, never turned into an error for the caller.
 */
export const publishToChannel = async (channel: string, event: LiveEvent): Promise<void> => {
  try {
    await live().publish(channel, { ...event, sentAt: Date.now() });
  } catch (error) {
    log('warn', 'live event not published', { type: event.type, error: (error as Error).message });
  }
};

/** Tells the school's signed-in staff about a committed change outside any session (no sequence number). */
export const publishToStaff = (schoolId: number, event: LiveEvent) =>
  publishToChannel(channels.staff(schoolId), event);

/**
 * Tells the school's signed-in staff about a committed change of a session,
 * numbered in the session's event sequence (one small write per event), so a
 * screen that sees a number skipped knows it missed one. The number is taken
 * after the change committed: a refused change never uses one. Should the
 * number not be had, the event still goes out, without one. The event may be
 * given as a promise (of reads it still needs); the number is taken meanwhile.
 */
export const publishToSession = async (
  schoolId: number,
  sessionId: number,
  event: CarLineEvent | Promise<CarLineEvent>,
): Promise<void> => {
  // The number is taken while the event's last reads (if any) are under way.
  const [seq, ready] = await Promise.all([
    eventSequence.next(db, sessionId).catch((error: Error) => {
      log('warn', 'live event not numbered', { error: error.message });
      return undefined;
    }),
    event,
  ]);
  await publishToStaff(schoolId, { ...ready, sessionId, ...(seq === undefined ? {} : { seq }) });
};
