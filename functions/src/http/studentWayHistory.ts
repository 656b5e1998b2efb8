import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { studentWayHistory } from '../services/weekly-plans';

/** `GET /api/students/{id}/way-history`: the student's way-home record, newest first. */
export const handler = httpHandler(routes.studentWayHistory, async ({ user, params, query }) =>
  studentWayHistory(requireUser(user), params.id, query.schoolId),
);
