import { routes } from '@curbside/api';
import { httpHandler, Reply } from '../lib/http';
import { requireUser } from '../services/auth';
import { createStaff } from '../services/districts';

/** `POST /api/districts/{id}/users`: a staff user of a school of the district, with a one-time password (201). */
export const handler = httpHandler(
  routes.createStaff,
  async ({ user, params, body }) =>
    new Reply(await createStaff(requireUser(user), params.id, body), { status: 201 }),
);
