import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { listActiveAlerts } from '../services/alerts';
import { requireUser } from '../services/auth';

/** `GET /api/alerts`: the school's active alerts; `?sessionId=`: the session's. Newest first. */
export const handler = httpHandler(routes.listAlerts, async ({ user, query }) =>
  listActiveAlerts(requireUser(user), query.sessionId),
);
