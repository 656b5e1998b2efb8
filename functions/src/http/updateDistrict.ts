import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { updateDistrict } from '../services/districts';

/** `PUT /api/districts/{id}`: Edit District (its name, its new schools' time zone). */
export const handler = httpHandler(routes.updateDistrict, async ({ user, params, body }) =>
  updateDistrict(requireUser(user), params.id, body),
);
