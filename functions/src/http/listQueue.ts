import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { earlyQueue, listQueue } from '../services/queue';

/**
 * `GET /api/queue`: the session's active queue in order, or completed pickups
 * newest first (the active queue read with the caller's sign-in: `earlyQueue`).
 */
export const handler = httpHandler(
  routes.listQueue,
  async ({ user, query, early }) => listQueue(requireUser(user), query.sessionId, query.status, early),
  [],
  { early: earlyQueue },
);
