import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { studentPickupsForStaff } from '../services/authorized-pickups';

/** `GET /api/students/{id}/authorized-pickups`: a student's authorized adults, for the school's staff. */
export const handler = httpHandler(routes.studentAuthorizedPickups, async ({ user, params }) =>
  studentPickupsForStaff(requireUser(user), params.id),
);
