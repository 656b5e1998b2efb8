import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { listTeachers } from '../services/roster/teachers';

/** `GET /api/teachers`: a page of the school's teachers. */
export const handler = httpHandler(routes.listTeachers, async ({ user, query }) =>
  listTeachers(requireUser(user), query),
);
