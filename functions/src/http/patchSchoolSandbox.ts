import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { setSchoolSandbox } from '../services/districts';

/** `PATCH /api/schools/{id}/sandbox`: the district admin screen's switch. */
export const handler = httpHandler(routes.patchSchoolSandbox, async ({ user, params, body }) =>
  setSchoolSandbox(requireUser(user), params.id, body.sandbox),
);
