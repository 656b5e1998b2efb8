import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { listQueue } from '../services/queue';

/** `GET /api/queue`: the session's active queue in order, or completed pickups newest first. */
export const handler = httpHandler(routes.listQueue, async ({ user, query }) =>
  listQueue(requireUser(user), query.sessionId, query.status),
);
