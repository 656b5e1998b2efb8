import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { setDistrictSandbox } from '../services/districts';

/** `PUT /api/districts/{id}/sandbox`: the super admin screen's switch of a district. */
export const handler = httpHandler(routes.putDistrictSandbox, async ({ user, params, body }) =>
  setDistrictSandbox(requireUser(user), params.id, body.sandbox),
);
