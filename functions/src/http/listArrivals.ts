import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { sessionArrivals } from '../services/arrivals';
import { requireUser } from '../services/auth';

/** `GET /api/arrivals?sessionId=`: the session's arrivals, newest first (staff of its school). */
export const handler = httpHandler(routes.listArrivals, async ({ user, query }) =>
  sessionArrivals(requireUser(user), query.sessionId),
);
