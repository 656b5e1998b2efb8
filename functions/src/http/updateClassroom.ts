import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { updateClassroom } from '../services/roster/classrooms';

/** `PUT /api/classrooms/{id}`: changes a classroom. */
export const handler = httpHandler(routes.updateClassroom, async ({ user, params, query, body }) =>
  updateClassroom(requireUser(user), params.id, query.schoolId, body),
);
