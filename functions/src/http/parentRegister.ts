import { routes } from '@curbside/api';
import { sessionCookie } from '../lib/auth';
import { httpHandler, Reply } from '../lib/http';
import { registerParent } from '../services/auth';

/** `POST /api/auth/parent/register`: creates a parent account and signs it in (201). */
export const handler = httpHandler(routes.parentRegister, async ({ body, event }) => {
  const { user, token, maxAgeSeconds } = await registerParent(body);
  return new Reply(user, { status: 201, cookies: [sessionCookie(event, token, maxAgeSeconds)] });
});
