import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { sessionReport } from '../services/reports';

/** `GET /api/sessions/{id}/report`: the session's pickups from its record, with who and when. */
export const handler = httpHandler(routes.sessionReport, async ({ user, params }) =>
  sessionReport(requireUser(user), params.id),
);
