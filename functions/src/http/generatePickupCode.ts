import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { generateCode } from '../services/pickup-codes';

/** `POST /api/pickup-codes/generate`: a new pickup code for a student. */
export const handler = httpHandler(routes.generatePickupCode, async ({ user, body }) =>
  generateCode(requireUser(user), body.studentId),
);
