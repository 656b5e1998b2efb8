import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';

/**
 * `POST /api/import/{kind}`: imports a CSV roster file, all or nothing. The
 * import's rules and planning load with the first import, not with the admin
 * function's cold start (a rare route: ADR 0019).
 */
export const handler = httpHandler(routes.importRoster, async ({ user, params, query, body }) => {
  const { importRoster } = await import('../services/roster/import');
  return importRoster(requireUser(user), params.kind, query.schoolId, body);
});
