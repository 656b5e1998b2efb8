import { routes } from '@curbside/api';
import { httpHandler, Reply } from '../lib/http';
import { requireUser } from '../services/auth';
import { sessionReportCsv } from '../services/reports';

/** `GET /api/sessions/{id}/report.csv`: the report's pickups, one row per student. */
export const handler = httpHandler(routes.sessionReportCsv, async ({ user, params }) => {
  const { csv, filename } = await sessionReportCsv(requireUser(user), params.id);
  return new Reply(csv, {
    text: true,
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${filename}"`,
    },
  });
});
