/**
 * The management API of the laptop runtime, reachable only in-process, by the
 * handlers running in this same process: there is no HTTP route to it, so no
 * other process or machine on the network can post to, read or close a
 * connection (a forged signature would otherwise push a fake alert to every
 * staff screen). The handlers' SDK client (`live()` in functions) signs and
 * serialises every call exactly as in AWS; only the last hop is a call into
 * the WebSocket gateway instead of HTTP (which also saves more than the SDK's
 * own cost on every live message).
 */
import type { ManagementTransport } from '@curbside/functions/lib/in-process';
import { access } from '@curbside/store';
import type { ManagementAnswer } from './websocket';

const PREFIX = '/@connections/';

type Answer = (method: string, connectionId: string, body: Uint8Array) => Promise<ManagementAnswer>;

const bytesOf = (body: unknown): Uint8Array =>
  body instanceof Uint8Array ? body : typeof body === 'string' ? Buffer.from(body) : new Uint8Array(0);

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
    // IAM on a laptop: only the functions that publish hold execute-api:ManageConnections.
    const grant = access.current();
    if (grant && !grant.manageConnections) {
      return response({
        status: 403,
        headers: { 'content-type': 'application/json', 'x-amzn-ErrorType': 'AccessDeniedException' },
        body: JSON.stringify({
          message: `${grant.name} is not authorized to perform execute-api:ManageConnections`,
        }),
      });
    }
    return response(await answer(request.method, connectionId, bytesOf(request.body)));
  },
});
