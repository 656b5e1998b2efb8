import { routes } from '@curbside/api';
import { httpHandler, Reply } from '../lib/http';
import { requireUser } from '../services/auth';
import { createParent } from '../services/roster/parents';

/** `POST /api/parents`: adds a parent account with a one-time password (201). */
export const handler = httpHandler(
  routes.createParent,
  async ({ user, query, body }) =>
    new Reply(await createParent(requireUser(user), query.schoolId, body), { status: 201 }),
);
