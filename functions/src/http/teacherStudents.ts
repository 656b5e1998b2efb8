import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { teacherStudents } from '../services/teacher';

/**
 * `GET /api/teacher/students?sessionId=&classroomIds=`: the students of those
 * classrooms (every student without `classroomIds`) with queue, batch,
 * release and pickup state; without `sessionId`, outside any session.
 */
export const handler = httpHandler(routes.teacherStudents, async ({ user, query }) =>
  teacherStudents(requireUser(user), query.sessionId, query.classroomIds),
);
