import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { currentCode } from '../services/pickup-codes';

/** `GET /api/students/{id}/pickup-code`: the student's current code, or null. */
export const handler = httpHandler(routes.studentPickupCode, async ({ user, params }) =>
  currentCode(requireUser(user), params.id),
);
