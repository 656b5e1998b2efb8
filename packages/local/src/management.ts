/**
 * The management API of the laptop runtime, reachable only in-process, by the
 * handlers running in this same process: there is no HTTP route to it, so no
 * other process or machine on the network can post to, read or close a
 * connection (a forged signature would otherwise push a fake alert to every
 * staff screen). The handlers' SDK client (`live()` in functions) signs and
 * serialises every other call exactly as in AWS, with a call into the
 * WebSocket gateway as the last hop instead of HTTP. Posts, the bulk of the
 * traffic (hundreds a second in a rush), skip the SDK's request altogether:
 * on a laptop every handler shares one thread, so its ~0.15 ms of CPU per
 * message would delay every other request, where in AWS each invocation
 * has its own CPU. Their answers and IAM check are the same.
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

/** IAM on a laptop: only the functions that publish hold execute-api:ManageConnections. */
const refusal = (): ManagementAnswer | undefined => {
  const grant = access.current();
  if (!grant || grant.manageConnections) return undefined;
  return {
    status: 403,
    headers: { 'content-type': 'application/json', 'x-amzn-ErrorType': 'AccessDeniedException' },
    body: JSON.stringify({
      message: `${grant.name} is not authorized to perform execute-api:ManageConnections`,
    }),
  };
};

/**
 * An SDK request handler that answers `/@connections/{id}` through `answer`,
 * and `post`, the same answer to a post without the SDK's request (the
 * publisher's fast path: one live message costs the SDK about 0.15 ms of CPU).
 */
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
    return response(refusal() ?? (await answer(request.method, connectionId, bytesOf(request.body))));
  },
  async post(connectionId, data) {
    const out = refusal() ?? (await answer('POST', connectionId, data));
    const errorType = Object.entries(out.headers).find(
      ([key]) => key.toLowerCase() === 'x-amzn-errortype',
    )?.[1];
    return errorType === undefined ? { status: out.status } : { status: out.status, errorType };
  },
});
