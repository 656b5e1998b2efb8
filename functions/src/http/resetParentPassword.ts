import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { resetPassword } from '../services/password-resets';

/** `POST /api/auth/parent/reset-password`: a reset link's new password (the link works once, for an hour). */
export const handler = httpHandler(routes.resetParentPassword, async ({ body }) => resetPassword(body));
