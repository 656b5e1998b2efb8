import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { listSessions } from '../services/sessions';

/** `GET /api/sessions`: the school's sessions, newest first. */
export const handler = httpHandler(routes.listSessions, async ({ user }) => listSessions(requireUser(user)));
