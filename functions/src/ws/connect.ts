import { channels } from '@curbside/api';
import { isStaffRole } from '@curbside/domain';
import { connections, sessionIdOf } from '@curbside/store';
import { cookieValue, isAllowedOrigin, SESSION_COOKIE, userOfToken } from '../lib/auth';
import { connectionsDb } from '../lib/context';
import { cameThroughCloudFront, logAroundCloudFront } from '../lib/edge';
import { log } from '../lib/log';
import { headerOf, type WsEvent, wsHandler } from '../lib/ws';

/**
 * `$connect`: refuses a page of another site (its Origin is not the site's:
 * a same-site page must not receive the school's queue events with a staff
 * cookie), then reads the session cookie. Signed-in staff join their school's
 * staff channel, parents their own channel; everyone joins the public channel
 * (bus positions) and nothing else.
 */
export const handler = wsHandler(async (event: WsEvent) => {
  if (!(await cameThroughCloudFront(event.headers))) {
    logAroundCloudFront('$connect');
    return { statusCode: 403 };
  }
  const origin = headerOf(event, 'origin');
  if (!isAllowedOrigin(origin, [headerOf(event, 'host')])) {
    log('warn', 'websocket refused: foreign origin', { origin });
    return { statusCode: 403 };
  }
  const token = cookieValue(headerOf(event, 'cookie'), SESSION_COOKIE);
  const user = await userOfToken(token);
  const joined = [channels.public()];
  if (user && isStaffRole(user.role) && user.schoolId !== null) joined.push(channels.staff(user.schoolId));
  if (user?.role === 'parent') joined.push(channels.parent(user.id));
  await connections.put(connectionsDb(), {
    connectionId: event.requestContext.connectionId,
    channels: joined,
    userId: user?.id ?? null,
    sessionId: user && token ? sessionIdOf(token) : null,
    connectedAt: new Date().toISOString(),
  });
  return { statusCode: 200 };
});
