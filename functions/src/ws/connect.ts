import { channels } from '@curbside/api';
import { connections } from '@curbside/store';
import { db } from '../lib/context';
import { wsHandler } from '../lib/ws';

/**
 * `$connect`: stores the connection with the channels it may join. Until
 * sign-in exists every connection is anonymous and joins the public channel.
 */
export const handler = wsHandler(async (event) => {
  await connections.put(db, {
    connectionId: event.requestContext.connectionId,
    channels: [channels.public()],
    userId: null,
    connectedAt: new Date().toISOString(),
  });
  return { statusCode: 200 };
});
