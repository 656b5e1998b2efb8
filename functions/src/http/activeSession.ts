import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { activeSession } from '../services/sessions';

/** `GET /api/sessions/active`: the school's running session or null. */
export const handler = httpHandler(routes.activeSession, async ({ user }) =>
  activeSession(requireUser(user)),
);
