import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { earlyRelease, releaseStudent } from '../services/teacher';

/** `PUT /api/teacher/students/{id}/release`: sends a student out for pickup (its first reads: `earlyRelease`). */
export const handler = httpHandler(
  routes.releaseStudent,
  async ({ user, params, early }) => releaseStudent(requireUser(user), params.id, early),
  [],
  { early: earlyRelease },
);
