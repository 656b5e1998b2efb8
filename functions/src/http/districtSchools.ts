import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { districtSchools } from '../services/districts';

/** `GET /api/districts/{id}/schools`: the district's schools. */
export const handler = httpHandler(routes.districtSchools, async ({ user, params }) =>
  districtSchools(requireUser(user), params.id),
);
