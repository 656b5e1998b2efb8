import { connections } from '@curbside/store';
import { connectionsDb } from '../lib/context';
import { wsHandler } from '../lib/ws';

/** `$disconnect` (best effort): removes the connection and its memberships. */
export const handler = wsHandler(async (event) => {
  await connections.remove(connectionsDb(), event.requestContext.connectionId);
  return { statusCode: 200 };
});
