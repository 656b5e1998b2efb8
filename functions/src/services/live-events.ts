import { channels, type LiveEvent } from '@curbside/api';
import { live } from '../lib/live';
import { log } from '../lib/log';

/**
 * Tells the school's signed-in staff about a committed change. The change
 * has already happened, so a failed fan-out is logged, never turned into an
 * error for the caller.
 */
export const publishToStaff = async (schoolId: number, event: LiveEvent): Promise<void> => {
  try {
    await live().publish(channels.staff(schoolId), event);
  } catch (error) {
    log('warn', 'live event not published', { type: event.type, error: (error as Error).message });
  }
};
