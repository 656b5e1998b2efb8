import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { classroomStudentCount } from '../services/roster/classrooms';

/** `GET /api/classrooms/{id}/student-count`: how many active students the classroom has. */
export const handler = httpHandler(routes.classroomStudentCount, async ({ user, params, query }) =>
  classroomStudentCount(requireUser(user), params.id, query.schoolId),
);
