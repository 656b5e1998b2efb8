import type { LiveEvent } from '@curbside/api';
import { connections, type SchoolConnection } from '@curbside/store';
import { connectionsDb } from '../lib/context';
import { besideTheAnswer } from '../lib/deferred';
import { live } from '../lib/live';
import { log } from '../lib/log';

/**
 * Sends a committed change to a channel, stamped with `sentAt` (now: callers
 * publish right after the change committed). The change has already happened,
 * so a failed fan-out is logged, never turned into an error for the caller.
 */
export const publishToChannel = (channel: string, event: LiveEvent): Promise<void> =>
  besideTheAnswer(
    (async () => {
      try {
        await live().publish(channel, { ...event, sentAt: Date.now() });
      } catch (error) {
        log('warn', 'live event not published', { type: event.type, error: (error as Error).message });
      }
    })(),
  );

/**
 * The connections that hear of a school's car line, with their channels: one
 * Query of the school's partition of the connection table, shared by the
 * staff's, the parents' and the displays' fan-out of one change (ADR 0027).
 * `children`: a change that can tell only these children's parents anything
 * gets the parents' pages of those children only (h54zf). A failed read is
 * an empty list (the change has committed; it is logged).
 */
export const schoolHearing = (schoolId: number, children?: readonly number[]): Promise<SchoolConnection[]> =>
  connections.ofSchool(connectionsDb(), schoolId, children ? { children } : {}).catch((error: Error) => {
    log('warn', "school's connections not read", { error: error.message });
    return [];
  });

/** The ids of the connections in `channel`, of a school's connections. */
export const inChannelOf = (hearing: readonly SchoolConnection[], channel: string): string[] =>
  hearing.filter((connection) => connection.channels.includes(channel)).map((c) => c.connectionId);
