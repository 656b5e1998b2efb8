import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { listActiveAlerts } from '../services/alerts';
import { requireUser } from '../services/auth';

/** `GET /api/alerts?sessionId=`: the session's active alerts, newest first. */
export const handler = httpHandler(routes.listAlerts, async ({ user, query }) =>
  listActiveAlerts(requireUser(user), query.sessionId),
);
