import { cookieValue, SESSION_COOKIE } from '../lib/auth';
import { headerIn } from '../lib/headers';
import { connectHandler } from '../lib/ws';
import { openConnection } from '../services/live-connections';

/**
 * `$connect`: after the edge checks (`connectHandler`: through CloudFront,
 * and a page of this site only, since a same-site page must not receive the
 * school's queue events with a staff cookie), opens the connection for its
 * caller (`openConnection`, the channels by `channelsOnConnect`): a page
 * opened from a bus or display link (`/ws?t=`) is refused when the link is
 * not (or no longer) valid; anyone else joins by the session cookie. A staff
 * page showing the bus map opens its own connection with `?buses=1`.
 */
export const handler = connectHandler(async (event) => {
  const query = event.queryStringParameters ?? {};
  const opened = await openConnection({
    connectionId: event.requestContext.connectionId,
    linkToken: query.t,
    sessionToken: cookieValue(headerIn(event.headers, 'cookie'), SESSION_COOKIE),
    buses: query.buses === '1',
  });
  return { statusCode: opened ? 200 : 403 };
});
