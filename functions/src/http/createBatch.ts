import { routes } from '@curbside/api';
import { httpHandler, Reply } from '../lib/http';
import { requireUser } from '../services/auth';
import { createBatch, earlyNewBatch } from '../services/batches';

/**
 * `POST /api/batches`: a new batch, loading from now on (201, with its id); `fill` loads it at once
 * (its first reads: `earlyNewBatch`).
 */
export const handler = httpHandler(
  routes.createBatch,
  async ({ user, body, early }) =>
    new Reply(await createBatch(requireUser(user), body.sessionId, body.vehicleType, body.fill, early), {
      status: 201,
    }),
  [],
  { early: earlyNewBatch },
);
