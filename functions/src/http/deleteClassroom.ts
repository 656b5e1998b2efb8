import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { deactivateClassroom } from '../services/roster/classrooms';

/** `DELETE /api/classrooms/{id}`: deactivates an empty classroom. */
export const handler = httpHandler(routes.deleteClassroom, async ({ user, params, query }) =>
  deactivateClassroom(requireUser(user), params.id, query.schoolId),
);
