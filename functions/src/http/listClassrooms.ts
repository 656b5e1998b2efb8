import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { listClassrooms } from '../services/roster/classrooms';

/** `GET /api/classrooms`: the school's active classrooms. */
export const handler = httpHandler(routes.listClassrooms, async ({ user, query }) =>
  listClassrooms(requireUser(user), query.schoolId),
);
