import { channels } from '@curbside/api';
import { isStaffRole } from '@curbside/domain';
import { connections } from '@curbside/store';
import { cookieValue, SESSION_COOKIE, userOfToken } from '../lib/auth';
import { db } from '../lib/context';
import { headerOf, wsHandler } from '../lib/ws';

/**
 * `$connect`: reads the session cookie. Signed-in staff join their school's
 * staff channel, parents their own channel; everyone joins the public
 * channel (bus positions) and nothing else.
 */
export const handler = wsHandler(async (event) => {
  const user = await userOfToken(cookieValue(headerOf(event, 'cookie'), SESSION_COOKIE));
  const joined = [channels.public()];
  if (user && isStaffRole(user.role) && user.schoolId !== null) joined.push(channels.staff(user.schoolId));
  if (user?.role === 'parent') joined.push(channels.parent(user.id));
  await connections.put(db, {
    connectionId: event.requestContext.connectionId,
    channels: joined,
    userId: user?.id ?? null,
    connectedAt: new Date().toISOString(),
  });
  return { statusCode: 200 };
});
