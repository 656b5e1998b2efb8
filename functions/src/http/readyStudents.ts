import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { readyStudents } from '../services/teacher';

/** `GET /api/teacher/students/ready?sessionId=`: students whose ride is here, newest first. */
export const handler = httpHandler(routes.readyStudents, async ({ user, query }) =>
  readyStudents(requireUser(user), query.sessionId, query.classroomIds),
);
