import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { releaseStudent } from '../services/teacher';

/** `PUT /api/teacher/students/{id}/release`: sends a student out for pickup. */
export const handler = httpHandler(routes.releaseStudent, async ({ user, params }) =>
  releaseStudent(requireUser(user), params.id),
);
