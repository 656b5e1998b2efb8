import { routes } from '@curbside/api';
import { clientAddress, DEVICE_COOKIE, signedInCookies } from '../lib/auth';
import { httpHandler, Reply } from '../lib/http';
import { signIn } from '../services/auth';

/** `POST /api/auth/parent/login`: parent sign-in. */
export const handler = httpHandler(routes.parentLogin, async ({ body, event, cookies }) => {
  const signedIn = await signIn(body, 'parent', clientAddress(event), cookies[DEVICE_COOKIE]);
  return new Reply(signedIn.user, { cookies: signedInCookies(event, signedIn) });
});
