import { live } from '../lib/live';
import { log } from '../lib/log';
import { wsHandler } from '../lib/ws';

/** `$default`: answers `ping` with `pong`; an unparseable message is logged and ignored. */
export const handler = wsHandler(async (event) => {
  let message: { type?: unknown };
  try {
    message = JSON.parse(event.body ?? '');
  } catch {
    log('warn', 'unparseable websocket message', { connectionId: event.requestContext.connectionId });
    return { statusCode: 200 };
  }
  if (message?.type === 'ping') {
    await live().send([event.requestContext.connectionId], { type: 'pong' });
  }
  return { statusCode: 200 };
});
