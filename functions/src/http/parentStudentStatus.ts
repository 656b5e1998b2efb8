import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { childrenStatus } from '../services/parents';

/** `GET /api/parent/students/status`: each linked child's pickup now (the dashboard polls it every 30 s). */
export const handler = httpHandler(routes.parentStudentStatus, async ({ user }) =>
  childrenStatus(requireUser(user)),
);
