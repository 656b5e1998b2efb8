import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { deactivateTeacher } from '../services/roster/teachers';

/** `DELETE /api/teachers/{id}`: deactivates a teacher. */
export const handler = httpHandler(routes.deleteTeacher, async ({ user, params, query }) =>
  deactivateTeacher(requireUser(user), params.id, query.schoolId),
);
