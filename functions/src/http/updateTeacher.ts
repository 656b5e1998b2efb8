import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { updateTeacher } from '../services/roster/teachers';

/** `PUT /api/teachers/{id}`: changes a teacher (and on request makes a new one-time password). */
export const handler = httpHandler(routes.updateTeacher, async ({ user, params, query, body }) =>
  updateTeacher(requireUser(user), params.id, query.schoolId, body),
);
