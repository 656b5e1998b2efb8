/** The events API Gateway WebSocket APIs pass to `$connect`, `$default` and `$disconnect`. */
import { randomBytes, randomUUID } from 'node:crypto';
import type { APIGatewayEventWebsocketRequestContextV2 } from 'aws-lambda';
import { queryParameters, type RequestLike, requestTime, sourceIpOf, splitUrl } from './events';

export type WsRouteKey = '$connect' | '$default' | '$disconnect';

export interface WsRequestContext extends APIGatewayEventWebsocketRequestContextV2 {
  identity: { sourceIp: string; userAgent?: string };
  disconnectStatusCode?: number;
  disconnectReason?: string;
}

export interface WsEvent {
  requestContext: WsRequestContext;
  headers?: Record<string, string>;
  multiValueHeaders?: Record<string, string[]>;
  queryStringParameters?: Record<string, string>;
  multiValueQueryStringParameters?: Record<string, string[]>;
  body?: string;
  isBase64Encoded: boolean;
}

/** What the runtime knows about one open connection. */
export interface ConnectionInfo {
  connectionId: string;
  connectedAt: number;
  domainName: string;
  sourceIp: string;
  userAgent: string;
}

/** A new connection id: 12 random bytes, base64url. */
export const newConnectionId = (): string => randomBytes(12).toString('base64url');

/** Headers with their original spelling (`Cookie`, `Host`), as `$connect` receives them. */
export const rawHeaders = (
  raw: readonly string[],
): { headers: Record<string, string>; multiValueHeaders: Record<string, string[]> } => {
  const multiValueHeaders: Record<string, string[]> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string;
    multiValueHeaders[name] = [...(multiValueHeaders[name] ?? []), raw[i + 1] as string];
  }
  const headers: Record<string, string> = {};
  for (const [name, values] of Object.entries(multiValueHeaders)) headers[name] = values.join(',');
  return { headers, multiValueHeaders };
};

const context = (
  info: ConnectionInfo,
  routeKey: WsRouteKey,
  eventType: WsRequestContext['eventType'],
  now: Date,
): WsRequestContext => ({
  routeKey,
  eventType,
  messageId: randomBytes(12).toString('base64url'),
  extendedRequestId: randomUUID(),
  requestId: randomUUID(),
  requestTime: requestTime(now),
  requestTimeEpoch: now.getTime(),
  messageDirection: 'IN',
  stage: 'local',
  connectedAt: info.connectedAt,
  domainName: info.domainName,
  connectionId: info.connectionId,
  apiId: 'local',
  identity: { sourceIp: info.sourceIp, userAgent: info.userAgent },
});

/** What the runtime records about a connection from its upgrade request. */
export const connectionInfo = (
  request: RequestLike,
  connectionId: string,
  now = Date.now(),
): ConnectionInfo => ({
  connectionId,
  connectedAt: now,
  domainName: (request.headers.host ?? 'localhost').replace(/:\d+$/, ''),
  sourceIp: sourceIpOf(request),
  userAgent: request.headers['user-agent'] ?? '',
});

/** `$connect`: carries the upgrade request's headers (Cookie among them) and query. */
export const connectEvent = (
  info: ConnectionInfo,
  request: RequestLike & { rawHeaders: string[] },
  now = new Date(),
): WsEvent => {
  const { headers, multiValueHeaders } = rawHeaders(request.rawHeaders);
  const { rawQueryString } = splitUrl(request.url ?? '/');
  const query = queryParameters(rawQueryString);
  const multiQuery: Record<string, string[]> = {};
  for (const [name, value] of new URLSearchParams(rawQueryString)) {
    multiQuery[name] = [...(multiQuery[name] ?? []), value];
  }
  return {
    requestContext: context(info, '$connect', 'CONNECT', now),
    headers,
    multiValueHeaders,
    ...(query ? { queryStringParameters: query, multiValueQueryStringParameters: multiQuery } : {}),
    isBase64Encoded: false,
  };
};

/** `$default`: one message from the client; binary frames arrive base64-encoded. */
export const messageEvent = (
  info: ConnectionInfo,
  data: Buffer,
  isBinary: boolean,
  now = new Date(),
): WsEvent => ({
  requestContext: context(info, '$default', 'MESSAGE', now),
  body: isBinary ? data.toString('base64') : data.toString('utf8'),
  isBase64Encoded: isBinary,
});

/** `$disconnect`: the close code and reason, best effort as in AWS. */
export const disconnectEvent = (
  info: ConnectionInfo,
  code: number,
  reason: string,
  now = new Date(),
): WsEvent => ({
  requestContext: {
    ...context(info, '$disconnect', 'DISCONNECT', now),
    disconnectStatusCode: code,
    disconnectReason: reason,
  },
  headers: { Host: info.domainName, 'X-Forwarded-For': info.sourceIp },
  multiValueHeaders: { Host: [info.domainName], 'X-Forwarded-For': [info.sourceIp] },
  isBase64Encoded: false,
});
