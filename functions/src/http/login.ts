import { routes } from '@curbside/api';
import { clientAddress, sessionCookie } from '../lib/auth';
import { httpHandler, Reply } from '../lib/http';
import { signIn } from '../services/auth';

/** `POST /api/login`: staff sign-in; answers the user and sets the session cookie. */
export const handler = httpHandler(routes.login, async ({ body, event }) => {
  const { user, token, maxAgeSeconds } = await signIn(body, 'staff', clientAddress(event));
  return new Reply(user, { cookies: [sessionCookie(event, token, maxAgeSeconds)] });
});
