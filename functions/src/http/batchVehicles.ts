import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { batchVehicles } from '../services/batches';

/** `GET /api/batches/{id}/vehicles`: the entries in a batch, with vehicle and students. */
export const handler = httpHandler(routes.batchVehicles, async ({ user, params }) =>
  batchVehicles(requireUser(user), params.id),
);
