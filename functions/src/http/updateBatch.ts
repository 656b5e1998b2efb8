import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { earlyBatch, updateBatch } from '../services/batches';

/** `PUT /api/batches/{id}`: completes a batch (and its vehicles); 409 once completed. */
export const handler = httpHandler(
  routes.updateBatch,
  async ({ user, params, body, early }) => updateBatch(requireUser(user), params.id, body, early),
  [],
  { early: earlyBatch },
);
