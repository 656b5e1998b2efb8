import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { checkIn } from '../services/way-releases';

/** `DELETE /api/programs/{id}/students/{studentId}/check-in`: takes a wrong check-in back. */
export const handler = httpHandler(routes.undoProgramCheckIn, async ({ user, params }) =>
  checkIn(requireUser(user), params.id, params.studentId, true),
);
