import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { generateCode } from '../services/pickup-codes';

/** `POST /api/students/{id}/pickup-code`: a new code for the student. */
export const handler = httpHandler(routes.newStudentPickupCode, async ({ user, params }) =>
  generateCode(requireUser(user), params.id),
);
