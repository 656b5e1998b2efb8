import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { exportStudent } from '../services/student-data';

/** `GET /api/students/{id}/export`: everything Curbside holds about a student (issue 55). */
export const handler = httpHandler(routes.exportStudent, async ({ user, params, query }) =>
  exportStudent(requireUser(user), params.id, query.schoolId),
);
