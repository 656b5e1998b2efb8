import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { updateProgram } from '../services/programs';

/** `PUT /api/programs/{id}`: a program's name, kind, location (and whether it is offered). */
export const handler = httpHandler(routes.updateProgram, async ({ user, params, query, body }) =>
  updateProgram(requireUser(user), params.id, body, query.schoolId),
);
