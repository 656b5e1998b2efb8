import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { updateStudent } from '../services/roster/students';

/** `PUT /api/students/{id}`: changes a student. */
export const handler = httpHandler(routes.updateStudent, async ({ user, params, query, body }) =>
  updateStudent(requireUser(user), params.id, query.schoolId, body),
);
