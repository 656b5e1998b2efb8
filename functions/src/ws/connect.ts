import { channels } from '@curbside/api';
import { isStaffRole } from '@curbside/domain';
import { busLinks, connections, displayLinks, sessionIdOf } from '@curbside/store';
import { cookieValue, isAllowedOrigin, SESSION_COOKIE, userOfToken } from '../lib/auth';
import { connectionsDb, db } from '../lib/context';
import { cameThroughCloudFront, logAroundCloudFront } from '../lib/edge';
import { log } from '../lib/log';
import { headerOf, type WsEvent, wsHandler } from '../lib/ws';

/**
 * `$connect`: refuses a page of another site (its Origin is not the site's:
 * a same-site page must not receive the school's queue events with a staff
 * cookie), then reads the session cookie. Signed-in staff join their school's
 * staff channel, parents their own channel; everyone joins the public channel
 * and nothing else. A page opened from a bus link (`/ws?t=`) is refused when
 * the link is not (or no longer) valid; a map link joins its school's bus
 * channel, a driver link may send positions and joins its school's driver
 * channel (told only that the school has seen a bus alert). A staff page showing the bus
 * map opens its own connection with `?buses=1` and joins the bus channel only.
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
  const query = event.queryStringParameters ?? {};
  const connectionId = event.requestContext.connectionId;
  const connectedAt = new Date().toISOString();
  if (query.t !== undefined) {
    const busLink = await busLinks.holderOf(db, query.t);
    if (!busLink) {
      // The hallway display's link (issue 32): its school's display channel, and nothing else.
      const displaySchool = await displayLinks.schoolOf(db, query.t);
      if (displaySchool === undefined) {
        log('info', 'websocket refused: not a bus or display link');
        return { statusCode: 403 };
      }
      await connections.put(connectionsDb(), {
        connectionId,
        channels: [channels.public(), channels.display(displaySchool)],
        userId: null,
        sessionId: null,
        connectedAt,
      });
      return { statusCode: 200 };
    }
    const joined = [channels.public(), channels.busLinks(busLink.schoolId)];
    if (busLink.kind === 'map') joined.push(channels.buses(busLink.schoolId));
    if (busLink.kind === 'driver') joined.push(channels.drivers(busLink.schoolId));
    await connections.put(connectionsDb(), {
      connectionId,
      channels: joined,
      userId: null,
      sessionId: null,
      connectedAt,
      busLink,
    });
    return { statusCode: 200 };
  }
  const token = cookieValue(headerOf(event, 'cookie'), SESSION_COOKIE);
  const signedIn = await userOfToken(token);
  // Signed in with a one-time password not yet replaced: nothing but pongs until they choose their own.
  const user = signedIn?.mustChangePassword ? null : signedIn;
  const staffSchool = user && isStaffRole(user.role) ? user.schoolId : null;
  const joined = [channels.public()];
  if (query.buses === '1') {
    if (staffSchool !== null) joined.push(channels.buses(staffSchool));
  } else {
    // Every car-line event of the school until the connection subscribes to classrooms.
    if (staffSchool !== null) joined.push(channels.staff(staffSchool), channels.line(staffSchool));
    if (user?.role === 'parent') joined.push(channels.parent(user.id));
  }
  await connections.put(connectionsDb(), {
    connectionId,
    channels: joined,
    userId: signedIn?.id ?? null,
    sessionId: signedIn && token ? sessionIdOf(token) : null,
    connectedAt,
  });
  return { statusCode: 200 };
});
