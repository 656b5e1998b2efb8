import type { LiveEvent } from '@curbside/api';
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
