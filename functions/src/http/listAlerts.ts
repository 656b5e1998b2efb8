import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { earlyAlerts, listActiveAlerts } from '../services/alerts';
import { requireUser } from '../services/auth';

/**
 * `GET /api/alerts`: the school's active alerts; `?sessionId=`: the session's.
 * Newest first (read with the sign-in: `earlyAlerts`).
 */
export const handler = httpHandler(
  routes.listAlerts,
  async ({ user, query, early }) => listActiveAlerts(requireUser(user), query.sessionId, early),
  [],
  { early: earlyAlerts },
);
