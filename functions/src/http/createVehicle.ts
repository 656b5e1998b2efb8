import { routes } from '@curbside/api';
import { httpHandler, Reply } from '../lib/http';
import { requireUser } from '../services/auth';
import { createVehicle } from '../services/roster/vehicles';

/** `POST /api/vehicles`: registers a car or bus (201); 409 when the number is taken. */
export const handler = httpHandler(
  routes.createVehicle,
  async ({ user, query, body }) =>
    new Reply(await createVehicle(requireUser(user), query.schoolId, body), { status: 201 }),
);
