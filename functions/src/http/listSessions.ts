import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { listSessionsWithSummary } from '../services/reports';

/** `GET /api/sessions`: the school's sessions, newest first, paged, each with its summary. */
export const handler = httpHandler(routes.listSessions, async ({ user, query }) =>
  listSessionsWithSummary(requireUser(user), query.cursor),
);
