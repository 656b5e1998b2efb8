import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { eraseStudent } from '../services/student-data';

/** `POST /api/students/{id}/erase`: erases a student's personal data everywhere (issue 55). */
export const handler = httpHandler(routes.eraseStudent, async ({ user, params, query, body }) =>
  eraseStudent(requireUser(user), params.id, query.schoolId, body),
);
