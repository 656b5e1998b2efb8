import { routes } from '@curbside/api';
import { httpHandler, Reply } from '../lib/http';
import { requireUser } from '../services/auth';
import { createClassroom } from '../services/roster/classrooms';

/** `POST /api/classrooms`: adds a classroom (201). */
export const handler = httpHandler(
  routes.createClassroom,
  async ({ user, query, body }) =>
    new Reply(await createClassroom(requireUser(user), query.schoolId, body), { status: 201 }),
);
