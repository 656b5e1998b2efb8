import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { updateVehicle } from '../services/roster/vehicles';

/** `PUT /api/vehicles/{id}`: changes a vehicle and its students. */
export const handler = httpHandler(routes.updateVehicle, async ({ user, params, query, body }) =>
  updateVehicle(requireUser(user), params.id, query.schoolId, body),
);
