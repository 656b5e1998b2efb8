import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { listVehicles } from '../services/queue';

/** `GET /api/vehicles`: the school's registered vehicles. */
export const handler = httpHandler(routes.listVehicles, async ({ user }) => listVehicles(requireUser(user)));
