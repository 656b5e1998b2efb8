import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { setStudentPlan } from '../services/weekly-plans';

/** `PUT /api/students/{id}/dismissal-plan`: sets the student's default week (in their record). */
export const handler = httpHandler(routes.putDismissalPlan, async ({ user, params, query, body }) =>
  setStudentPlan(requireUser(user), params.id, body.plan, query.schoolId),
);
