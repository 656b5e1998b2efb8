import { routes } from '@curbside/api';
import { httpHandler, Reply } from '../lib/http';
import { requireUser } from '../services/auth';
import { createProgram } from '../services/programs';

/** `POST /api/programs`: a new program (201). */
export const handler = httpHandler(
  routes.createProgram,
  async ({ user, query, body }) =>
    new Reply(await createProgram(requireUser(user), body, query.schoolId), { status: 201 }),
);
