import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { addNextToBatch } from '../services/batches';

/** `POST /api/batches/{id}/vehicles`: add-to-batch, the first waiting vehicle of the batch's type. */
export const handler = httpHandler(routes.addToBatch, async ({ user, params }) =>
  addNextToBatch(requireUser(user), params.id),
);
