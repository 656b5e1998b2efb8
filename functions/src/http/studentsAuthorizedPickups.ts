import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { studentsPickupsForStaff } from '../services/authorized-pickups';

/** `GET /api/authorized-pickups?studentIds=…`: several students' authorized adults, for the school's staff. */
export const handler = httpHandler(routes.studentsAuthorizedPickups, async ({ user, query }) =>
  studentsPickupsForStaff(requireUser(user), query.studentIds),
);
