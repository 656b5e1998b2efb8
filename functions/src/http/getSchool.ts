import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { readSchool } from '../services/tenancy';

/** `GET /api/schools/{id}`: a school the user may see. */
export const handler = httpHandler(routes.getSchool, async ({ user, params }) =>
  readSchool(requireUser(user), params.id),
);
