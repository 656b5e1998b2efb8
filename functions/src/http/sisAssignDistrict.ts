import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { assignCleverDistrict } from '../services/sis/districts';

/** `PUT /api/districts/{id}/clever`: the super admin assigns a Clever district to a district. */
export const handler = httpHandler(routes.sisAssignDistrict, async ({ user, params, body }) =>
  assignCleverDistrict(requireUser(user), params.id, body.cleverDistrictId),
);
