import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { listBatches } from '../services/batches';

/** `GET /api/batches?sessionId=&status=completed`: the session's batches of that status. */
export const handler = httpHandler(routes.listBatches, async ({ user, query }) =>
  listBatches(requireUser(user), query.sessionId, query.status),
);
