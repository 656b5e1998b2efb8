import middy from '@middy/core';
import type { APIGatewayProxyResultV2, APIGatewayProxyWebsocketEventV2, Context } from 'aws-lambda';
import { edgeChecks, RefusedAtEdgeError } from './edge';
import { beginInvocation, flushMetrics, log } from './log';

/** `$connect` also carries the request headers (the Cookie header among them). */
export type WsEvent = APIGatewayProxyWebsocketEventV2 & {
  headers?: Record<string, string | undefined>;
  multiValueHeaders?: Record<string, string[] | undefined>;
};
export type WsResult = { statusCode: number; body?: string };

/**
 * The one middy chain for WebSocket handlers: a thrown error is logged and
 * answered 500 (on `$connect` that refuses the connection); nothing leaks.
 */
export const wsHandler = (fn: (event: WsEvent) => Promise<WsResult>) =>
  middy<WsEvent, APIGatewayProxyResultV2, Error, Context>()
    .use({
      before: ({ event, context }) =>
        beginInvocation(context, {
          request_id: event.requestContext.requestId,
          route: event.requestContext.routeKey,
          connection_id: event.requestContext.connectionId,
        }),
      after: () => flushMetrics(),
      onError: (request) => {
        if (request.error instanceof RefusedAtEdgeError) {
          request.response = { statusCode: 403 };
          flushMetrics();
          return;
        }
        log('error', 'websocket handler failed', {
          error: request.error instanceof Error ? request.error.message : String(request.error),
        });
        request.response = { statusCode: 500, body: 'Internal error' };
        flushMetrics();
      },
    })
    .handler(fn);

/**
 * `$connect`'s chain: the edge checks HTTP's chain starts with (through
 * CloudFront), and the page's Origin as well, since a WebSocket carries the
 * session cookie when it connects. Refused: 403, the connection is not opened.
 */
export const connectHandler = (fn: (event: WsEvent) => Promise<WsResult>) =>
  wsHandler(fn).use(edgeChecks<WsEvent, APIGatewayProxyResultV2>({ sameSite: true }));
