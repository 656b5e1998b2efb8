import { routes } from '@curbside/api';
import { knownSchoolOf } from '../lib/auth';
import { type EarlyReads, httpHandler } from '../lib/http';
import { type AlertReads, alertReads, listActiveAlerts } from '../services/alerts';
import { requireUser } from '../services/auth';
import { knownSchoolOfSession } from '../services/scope';

/**
 * A screen's poll of the alerts, read with the caller's sign-in for a staff
 * member this instance signed in at a school (and, with a session, one it
 * knows to be of that school); `listActiveAlerts` still checks.
 */
const early: EarlyReads<(typeof routes.listAlerts)['request'], AlertReads> = (userId, { query }) => {
  const schoolId = knownSchoolOf(userId);
  const { sessionId } = query;
  if (schoolId === undefined) return undefined;
  if (sessionId !== undefined && knownSchoolOfSession(sessionId) !== schoolId) return undefined;
  return alertReads(schoolId, sessionId).then((reads) => ({ schoolId, sessionId, reads }));
};

/**
 * `GET /api/alerts`: the school's active alerts; `?sessionId=`: the session's.
 * Newest first (read with the sign-in: `early`).
 */
export const handler = httpHandler(
  routes.listAlerts,
  async ({ user, query, early }) => listActiveAlerts(requireUser(user), query.sessionId, early),
  [],
  { early },
);
