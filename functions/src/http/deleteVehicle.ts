import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { deactivateVehicle } from '../services/roster/vehicles';

/** `DELETE /api/vehicles/{id}`: deactivates a vehicle. */
export const handler = httpHandler(routes.deleteVehicle, async ({ user, params, query }) =>
  deactivateVehicle(requireUser(user), params.id, query.schoolId),
);
