import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { importRoster } from '../services/roster/import';

/** `POST /api/import/{kind}`: imports a CSV roster file, all or nothing. */
export const handler = httpHandler(routes.importRoster, async ({ user, params, query, body }) =>
  importRoster(requireUser(user), params.kind, query.schoolId, body),
);
