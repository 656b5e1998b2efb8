/**
 * The management API without HTTP, for the handlers running in this same
 * process. The handlers' SDK client (`live()` in functions) signs and
 * serialises every `PostToConnection` exactly as in AWS; only the last hop,
 * an HTTP round trip from this process to itself, is replaced by a call into
 * the WebSocket gateway. That hop cost more than the SDK itself on every live
 * message (the dismissal-rush benchmark sends about 40 per change).
 */
import type { ManagementTransport } from '@curbside/functions/lib/in-process';
import type { ManagementAnswer } from './websocket';

const PREFIX = '/@connections/';

type Answer = (
  method: string,
  connectionId: string,
  body: Uint8Array,
  authorization: string | undefined,
) => Promise<ManagementAnswer>;

const bytesOf = (body: unknown): Uint8Array =>
  body instanceof Uint8Array ? body : typeof body === 'string' ? Buffer.from(body) : new Uint8Array(0);

const headerOf = (headers: Record<string, string>, name: string) =>
  Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];

const response = (out: ManagementAnswer) => ({
  response: {
    statusCode: out.status,
    headers: Object.fromEntries(
      Object.entries(out.headers).map(([key, value]) => [key.toLowerCase(), value]),
    ),
    body: out.body === undefined ? new Uint8Array(0) : Buffer.from(out.body),
  },
});

/** An SDK request handler that answers `/@connections/{id}` through `answer`. */
export const inProcessTransport = (answer: Answer): ManagementTransport => ({
  async handle(request) {
    const at = request.path.indexOf(PREFIX);
    let connectionId: string;
    try {
      if (at < 0) throw new Error('not a management path');
      connectionId = decodeURIComponent(request.path.slice(at + PREFIX.length));
    } catch {
      return response({
        status: 400,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'Invalid connection id' }),
      });
    }
    const authorization = headerOf(request.headers, 'authorization');
    return response(await answer(request.method, connectionId, bytesOf(request.body), authorization));
  },
});
