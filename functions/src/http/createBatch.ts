import { routes } from '@curbside/api';
import { httpHandler, Reply } from '../lib/http';
import { requireUser } from '../services/auth';
import { createBatch } from '../services/batches';

/** `POST /api/batches`: a new batch, loading from now on (201, with its id); `fill` loads it at once. */
export const handler = httpHandler(
  routes.createBatch,
  async ({ user, body }) =>
    new Reply(await createBatch(requireUser(user), body.sessionId, body.vehicleType, body.fill), {
      status: 201,
    }),
);
