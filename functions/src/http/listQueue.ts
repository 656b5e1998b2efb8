import { routes } from '@curbside/api';
import type { QueueEntry } from '@curbside/domain';
import { knownSchoolOf } from '../lib/auth';
import { type EarlyReads, httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { activeQueue, listQueue } from '../services/queue';
import { knownSchoolOfSession } from '../services/scope';

/**
 * A screen's poll of the active queue, read with the caller's sign-in when
 * this instance knows the caller as staff of the session's school (which
 * `listQueue` still checks before answering it).
 */
const early: EarlyReads<(typeof routes.listQueue)['request'], QueueEntry[]> = (userId, { query }) => {
  const school = knownSchoolOf(userId);
  if (query.status !== undefined || school === undefined) return undefined;
  return knownSchoolOfSession(query.sessionId) === school ? activeQueue(query.sessionId) : undefined;
};

/**
 * `GET /api/queue`: the session's active queue in order, or completed pickups
 * newest first (the active queue read with the caller's sign-in: `early`).
 */
export const handler = httpHandler(
  routes.listQueue,
  async ({ user, query, early }) => listQueue(requireUser(user), query.sessionId, query.status, early),
  [],
  { early },
);
