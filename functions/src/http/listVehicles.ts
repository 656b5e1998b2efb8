import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { listVehicles } from '../services/roster/vehicles';

/** `GET /api/vehicles`: a page of the school's vehicles, or one by type and number. */
export const handler = httpHandler(routes.listVehicles, async ({ user, query }) =>
  listVehicles(requireUser(user), query),
);
