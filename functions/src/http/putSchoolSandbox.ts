import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { setSchoolSandbox } from '../services/districts';

/** `PUT /api/schools/{id}/sandbox`: the super admin screen's switch of a school. */
export const handler = httpHandler(routes.putSchoolSandbox, async ({ user, params, body }) =>
  setSchoolSandbox(requireUser(user), params.id, body.sandbox),
);
