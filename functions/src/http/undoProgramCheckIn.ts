import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { checkIn } from '../services/way-releases';

/** `DELETE /api/students/{id}/program-check-in`: takes a wrong check-in back. */
export const handler = httpHandler(routes.undoProgramCheckIn, async ({ user, params }) =>
  checkIn(requireUser(user), params.id, true),
);
