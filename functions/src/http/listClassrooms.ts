import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { listClassrooms } from '../services/teacher';

/** `GET /api/classrooms`: the school's classrooms. */
export const handler = httpHandler(routes.listClassrooms, async ({ user }) =>
  listClassrooms(requireUser(user)),
);
