import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { planOfDay } from '../services/ways-home';

/** `GET /api/dismissal-plan?date=`: each student's way home that day (a teacher: their classrooms). */
export const handler = httpHandler(routes.dayPlan, async ({ user, query }) =>
  planOfDay(requireUser(user), query),
);
