import { routes } from '@curbside/api';
import { clientAddress, DEVICE_COOKIE, signedInCookies } from '../lib/auth';
import { httpHandler, Reply } from '../lib/http';
import { signIn } from '../services/auth';

/** `POST /api/login`: staff sign-in; answers the user and sets the session (and device) cookie. */
export const handler = httpHandler(routes.login, async ({ body, event, cookies }) => {
  const signedIn = await signIn(body, 'staff', clientAddress(event), cookies[DEVICE_COOKIE]);
  return new Reply(signedIn.user, { cookies: signedInCookies(event, signedIn) });
});
