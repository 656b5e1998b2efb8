import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { schoolSummary } from '../services/roster/summary';

/** `GET /api/school-summary`: roster counts and where the students are in a session. */
export const handler = httpHandler(routes.schoolSummary, async ({ user, query }) =>
  schoolSummary(requireUser(user), query.schoolId, query.sessionId),
);
