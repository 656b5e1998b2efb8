import { routes } from '@curbside/api';
import { clientAddress, DEVICE_COOKIE, signedInCookies } from '../lib/auth';
import { httpHandler, Reply } from '../lib/http';
import { registerParent } from '../services/auth';

/** `POST /api/auth/parent/register`: creates a parent account and signs it in (201). */
export const handler = httpHandler(routes.parentRegister, async ({ body, event, cookies }) => {
  const signedIn = await registerParent(body, clientAddress(event), cookies[DEVICE_COOKIE]);
  return new Reply(signedIn.user, { status: 201, cookies: signedInCookies(event, signedIn) });
});
