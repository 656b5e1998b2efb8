import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { deleteProgram } from '../services/programs';

/** `DELETE /api/programs/{id}`: deleted, or deactivated while students are planned into it. */
export const handler = httpHandler(routes.deleteProgram, async ({ user, params, query }) =>
  deleteProgram(requireUser(user), params.id, query.schoolId),
);
