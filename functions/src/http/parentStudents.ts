import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { linkedChildren } from '../services/parents';

/** `GET /api/parent/students`: the signed-in parent's linked children. */
export const handler = httpHandler(routes.parentStudents, async ({ user }) =>
  linkedChildren(requireUser(user)),
);
