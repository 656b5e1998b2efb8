import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { studentPickups } from '../services/reports';

/** `GET /api/students/{id}/pickups`: the student's last pickups, newest first. */
export const handler = httpHandler(routes.studentPickups, async ({ user, params }) =>
  studentPickups(requireUser(user), params.id),
);
