import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { deactivateStudent } from '../services/roster/students';

/** `DELETE /api/students/{id}`: deactivates a student (kept for history). */
export const handler = httpHandler(routes.deleteStudent, async ({ user, params, query }) =>
  deactivateStudent(requireUser(user), params.id, query.schoolId),
);
