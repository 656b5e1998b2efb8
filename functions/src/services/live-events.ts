import { type CarLineEvent, channels, type LiveEvent } from '@curbside/api';
import { eventSequence } from '@curbside/store';
import { db } from '../lib/context';
import { log } from '../lib/log';
import { tellDisplays } from './display';
import { tellParents } from './parents';
import { publishToChannel } from './publish';

export { publishToChannel };

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
 * The parents of the children it is about are told too (`parents.ts`).
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
  await Promise.all([
    publishToStaff(schoolId, { ...ready, sessionId, ...(seq === undefined ? {} : { seq }) }),
    tellParents(schoolId, sessionId, ready),
    ...(DISPLAY_CHANGES.has(ready.type) ? [tellDisplays(schoolId)] : []),
  ]);
};

/** The line's changes that can change the hallway display's board (issue 32). */
const DISPLAY_CHANGES: ReadonlySet<string> = new Set([
  'QUEUE_STATUS_UPDATED',
  'VEHICLE_REMOVED',
  'VEHICLES_REMOVED_FROM_QUEUE',
]);
