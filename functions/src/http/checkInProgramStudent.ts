import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { checkIn } from '../services/way-releases';

/** `PUT /api/students/{id}/program-check-in`: the child arrived at their program today. */
export const handler = httpHandler(routes.checkInProgramStudent, async ({ user, params }) =>
  checkIn(requireUser(user), params.id),
);
