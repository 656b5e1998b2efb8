import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { parentWaysHome } from '../services/parent-ways-home';

/** `GET /api/parent/ways-home`: each child's way home today, and what their school offers. */
export const handler = httpHandler(routes.parentWaysHome, async ({ user }) =>
  parentWaysHome(requireUser(user)),
);
