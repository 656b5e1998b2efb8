import { routes } from '@curbside/api';
import { clientAddress, DEVICE_COOKIE, signedInCookies } from '../lib/auth';
import { httpHandler, Reply } from '../lib/http';
import { acceptInvite } from '../services/parent-invites';

/** `POST /api/parent-invites/accept`: links the invite's child; a new account is signed in (throttled). */
export const handler = httpHandler(routes.acceptParentInvite, async ({ user, body, event, cookies }) => {
  const { result, signedIn } = await acceptInvite(user, body, clientAddress(event), cookies[DEVICE_COOKIE]);
  return signedIn ? new Reply(result, { status: 201, cookies: signedInCookies(event, signedIn) }) : result;
});
