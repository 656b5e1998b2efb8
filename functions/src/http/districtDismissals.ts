import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { districtDismissals } from '../services/reports';

/** `GET /api/districts/{id}/dismissals?from=&to=`: each school's dismissals over the days, from the record. */
export const handler = httpHandler(routes.districtDismissals, async ({ user, params, query }) =>
  districtDismissals(requireUser(user), params.id, query),
);
