import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { districtReport } from '../services/districts';

/** `GET /api/districts/{id}/report`: each school's last dismissal (Generate Report). */
export const handler = httpHandler(routes.districtReport, async ({ user, params }) =>
  districtReport(requireUser(user), params.id),
);
