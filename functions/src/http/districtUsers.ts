import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { districtUsers } from '../services/districts';

/** `GET /api/districts/{id}/users`: the district's staff. */
export const handler = httpHandler(routes.districtUsers, async ({ user, params }) =>
  districtUsers(requireUser(user), params.id),
);
