import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { listBatches } from '../services/batches';

/** `GET /api/batches/active?sessionId=`: the session's loading batches. */
export const handler = httpHandler(routes.activeBatches, async ({ user, query }) =>
  listBatches(requireUser(user), query.sessionId, 'loading'),
);
