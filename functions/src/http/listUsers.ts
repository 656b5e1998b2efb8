import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { listUsers } from '../services/users';

/** `GET /api/users`: the users of the signed-in staff member's school. */
export const handler = httpHandler(routes.listUsers, async ({ user }) => listUsers(requireUser(user)));
