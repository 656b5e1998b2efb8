import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { sessionEvents } from '../services/reports';

/** `GET /api/sessions/{id}/events`: the session's raw record, oldest first, paged. */
export const handler = httpHandler(routes.sessionEvents, async ({ user, params, query }) =>
  sessionEvents(requireUser(user), params.id, query.cursor),
);
