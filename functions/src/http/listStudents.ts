import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { listStudents } from '../services/roster/students';

/** `GET /api/students`: a page of the school's students. */
export const handler = httpHandler(routes.listStudents, async ({ user, query }) =>
  listStudents(requireUser(user), query),
);
