import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { childrenStatus, earlyPoll } from '../services/parents';

/**
 * `GET /api/parent/students/status`: each linked child's pickup now (the
 * dashboard polls it every 30 s; its first reads go with the sign-in's: `earlyPoll`).
 */
export const handler = httpHandler(
  routes.parentStudentStatus,
  async ({ user, early }) => childrenStatus(requireUser(user), early),
  [],
  { early: earlyPoll },
);
