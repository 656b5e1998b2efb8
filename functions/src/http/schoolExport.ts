import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { schoolExport } from '../services/school-export';

/** `GET /api/schools/{id}/export?from=&to=`: the school's rosters and dismissals as CSV files. */
export const handler = httpHandler(routes.schoolExport, async ({ user, params, query }) =>
  schoolExport(requireUser(user), params.id, query),
);
