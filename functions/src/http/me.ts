import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';

/** `GET /api/me`: the signed-in user; 401 when not signed in. */
export const handler = httpHandler(routes.me, async ({ user }) => requireUser(user));
