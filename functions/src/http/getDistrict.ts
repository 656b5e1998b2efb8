import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { readDistrict } from '../services/tenancy';

/** `GET /api/districts/{id}`: the user's district. */
export const handler = httpHandler(routes.getDistrict, async ({ user, params }) =>
  readDistrict(requireUser(user), params.id),
);
