import type { WsRouteKey } from '@curbside/api';
import type { Context } from 'aws-lambda';

/**
 * The entry of a function that serves several handlers (see `functionPlan`
 * in packages/api): it hands each event to the handler of its route. The
 * functions build generates one entry per function from the route table.
 */
// biome-ignore lint/suspicious/noExplicitAny: events and results differ per trigger
type Handler = (event: any, context: Context) => Promise<any>;

const notFound = {
  statusCode: 404,
  headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  body: JSON.stringify({ message: 'Not found' }),
};

/** An HTTP API function: by the event's route key (`POST /api/login`). */
export const dispatchHttp =
  (handlers: Readonly<Record<string, Handler>>): Handler =>
  async (event: { routeKey?: string }, context) => {
    const handler = event.routeKey ? handlers[event.routeKey] : undefined;
    return handler ? handler(event, context) : notFound;
  };

/** The WebSocket API function: by `$connect`, `$disconnect` or `$default`. */
export const dispatchWs =
  (handlers: Readonly<Record<WsRouteKey, Handler>>): Handler =>
  async (event: { requestContext?: { routeKey?: string } }, context) => {
    const handler = handlers[(event.requestContext?.routeKey ?? '') as WsRouteKey];
    return handler ? handler(event, context) : { statusCode: 400 };
  };

/** The scheduled function: by the schedule the rule names (`detail.schedule`). */
export const dispatchScheduled =
  (handlers: Readonly<Record<string, Handler>>): Handler =>
  async (event: { detail?: { schedule?: string } }, context) => {
    const name = event.detail?.schedule ?? '';
    const handler = handlers[name];
    if (!handler) throw new Error(`No scheduled handler ${name}`);
    return handler(event, context);
  };
