import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { addNextToBatch, earlyBatch } from '../services/batches';

/**
 * `POST /api/batches/{id}/vehicles`: add-to-batch, the first waiting vehicle
 * of the batch's type (its first reads: `earlyBatch`).
 */
export const handler = httpHandler(
  routes.addToBatch,
  async ({ user, params, early }) => addNextToBatch(requireUser(user), params.id, early),
  [],
  { early: earlyBatch },
);
