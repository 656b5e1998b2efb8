import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { teacherStudents } from '../services/teacher';

/**
 * `GET /api/teacher/students?sessionId=`: every student with queue, batch,
 * release and pickup state; without `sessionId`, every student outside any session.
 */
export const handler = httpHandler(routes.teacherStudents, async ({ user, query }) =>
  teacherStudents(requireUser(user), query.sessionId),
);
