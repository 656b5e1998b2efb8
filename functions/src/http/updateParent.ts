import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { updateParent } from '../services/roster/parents';

/** `PUT /api/parents/{id}`: changes a parent and their children. */
export const handler = httpHandler(routes.updateParent, async ({ user, params, query, body }) =>
  updateParent(requireUser(user), params.id, query.schoolId, body),
);
