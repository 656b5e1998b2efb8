import { routes } from '@curbside/api';
import { clientAddress, DEVICE_COOKIE, signedInCookies } from '../lib/auth';
import { httpHandler, Reply } from '../lib/http';
import { changeOwnPassword, requireUser } from '../services/auth';

/**
 * `POST /api/auth/password`: the signed-in user sets their own password;
 * their other sign-ins end and this one gets a new session cookie.
 */
export const handler = httpHandler(routes.changePassword, async ({ user, body, event, cookies }) => {
  const signedIn = await changeOwnPassword(
    requireUser(user),
    body,
    clientAddress(event),
    cookies[DEVICE_COOKIE],
  );
  return new Reply(signedIn.user, { cookies: signedInCookies(event, signedIn) });
});
