import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { studentPlan } from '../services/weekly-plans';

/** `GET /api/students/{id}/dismissal-plan`: the student's default week. */
export const handler = httpHandler(routes.getDismissalPlan, async ({ user, params, query }) =>
  studentPlan(requireUser(user), params.id, query.schoolId),
);
