import { routes } from '@curbside/api';
import { httpHandler, Reply } from '../lib/http';
import { requireUser } from '../services/auth';
import { createStudent } from '../services/roster/students';

/** `POST /api/students`: adds a student (201). */
export const handler = httpHandler(
  routes.createStudent,
  async ({ user, query, body }) =>
    new Reply(await createStudent(requireUser(user), query.schoolId, body), { status: 201 }),
);
