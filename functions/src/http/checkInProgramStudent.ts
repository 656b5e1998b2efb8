import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { checkIn } from '../services/way-releases';

/** `PUT /api/programs/{id}/students/{studentId}/check-in`: the child arrived at the program today. */
export const handler = httpHandler(routes.checkInProgramStudent, async ({ user, params }) =>
  checkIn(requireUser(user), params.id, params.studentId),
);
