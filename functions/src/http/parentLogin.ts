import { routes } from '@curbside/api';
import { clientAddress, sessionCookie } from '../lib/auth';
import { httpHandler, Reply } from '../lib/http';
import { signIn } from '../services/auth';

/** `POST /api/auth/parent/login`: parent sign-in. */
export const handler = httpHandler(routes.parentLogin, async ({ body, event }) => {
  const { user, token, maxAgeSeconds } = await signIn(body, 'parent', clientAddress(event));
  return new Reply(user, { cookies: [sessionCookie(event, token, maxAgeSeconds)] });
});
