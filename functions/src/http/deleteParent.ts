import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { deactivateParent } from '../services/roster/parents';

/** `DELETE /api/parents/{id}`: deactivates a parent account. */
export const handler = httpHandler(routes.deleteParent, async ({ user, params, query }) =>
  deactivateParent(requireUser(user), params.id, query.schoolId),
);
