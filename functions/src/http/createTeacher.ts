import { routes } from '@curbside/api';
import { httpHandler, Reply } from '../lib/http';
import { requireUser } from '../services/auth';
import { createTeacher } from '../services/roster/teachers';

/** `POST /api/teachers`: adds a teacher with a one-time password (201). */
export const handler = httpHandler(
  routes.createTeacher,
  async ({ user, query, body }) =>
    new Reply(await createTeacher(requireUser(user), query.schoolId, body), { status: 201 }),
);
