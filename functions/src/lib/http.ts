import type { RouteDefinition, RouteRequest } from '@curbside/api';
import { isDomainError, RowsRejectedError, type User, ValidationError } from '@curbside/domain';
import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { z } from 'zod';
import { authorize, userOf } from './auth';
import { log } from './log';

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a route's service function receives: the parsed, validated request. */
export interface HttpRequest<Req extends RouteRequest> {
  event: APIGatewayProxyEventV2;
  params: Out<Req['params']>;
  query: Out<Req['query']>;
  body: Out<Req['body']>;
  /** Cookies as a name → value map. */
  cookies: Record<string, string>;
  /** The signed-in user (always set on routes that are not public). */
  user: User | null;
}

/** A reply other than a plain 200 JSON body: another status, cookies or headers. */
export class Reply<T = unknown> {
  constructor(
    readonly body: T,
    readonly options: { status?: number; cookies?: string[]; headers?: Record<string, string> } = {},
  ) {}
}

export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResult = APIGatewayProxyStructuredResultV2;

const json = (statusCode: number, body: unknown, extra: Partial<HttpResult> = {}): HttpResult => ({
  statusCode,
  headers: {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...extra.headers,
  },
  body: body === undefined ? '' : JSON.stringify(body),
  ...(extra.cookies && extra.cookies.length > 0 ? { cookies: extra.cookies } : {}),
});

interface State {
  params: unknown;
  query: unknown;
  body: unknown;
}
/** Parsed request parts, keyed by the event they came from. */
const parsed = new WeakMap<HttpEvent, State>();

const parseCookies = (event: HttpEvent): Record<string, string> => {
  const cookies: Record<string, string> = {};
  for (const pair of event.cookies ?? []) {
    const at = pair.indexOf('=');
    if (at > 0) cookies[pair.slice(0, at).trim()] = decodeURIComponent(pair.slice(at + 1).trim());
  }
  return cookies;
};

const issuesOf = (error: z.ZodError) =>
  error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));

/** Logs one line per request: route, status and duration. */
export const requestLogger = (): MiddlewareObj<HttpEvent, HttpResult> => {
  const started = new WeakMap<object, number>();
  const done = (request: { event: HttpEvent; response: HttpResult | undefined | null }) => {
    const start = started.get(request.event) ?? Date.now();
    log('info', 'request', {
      route: request.event.routeKey,
      status: request.response?.statusCode,
      ms: Date.now() - start,
    });
  };
  return {
    before: (request) => {
      started.set(request.event, Date.now());
    },
    after: done,
    onError: done,
  };
};

/**
 * Parses a JSON body; an unparseable body answers 400, never 500. A route
 * that takes `text/csv` gets its body as text.
 */
export const jsonBody = (
  contentType?: RouteDefinition['contentType'],
): MiddlewareObj<HttpEvent, HttpResult> => ({
  before: (request) => {
    const { event } = request;
    let body: unknown;
    if (event.body !== undefined && event.body !== null && event.body !== '') {
      const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
      if (contentType === 'text/csv') {
        body = text;
      } else {
        try {
          body = JSON.parse(text);
        } catch {
          throw new ValidationError('Request body is not valid JSON');
        }
      }
    }
    parsed.set(event, { params: event.pathParameters ?? {}, query: event.queryStringParameters ?? {}, body });
  },
});

/** Validates params, query and body with the route's zod schemas: 400 `{ message, issues }`. */
export const validate = (definition: RouteDefinition): MiddlewareObj<HttpEvent, HttpResult> => ({
  before: (request) => {
    const state = parsed.get(request.event) as State;
    for (const part of ['params', 'query', 'body'] as const) {
      const schema = definition.request[part];
      if (!schema) {
        state[part] = undefined;
        continue;
      }
      const result = schema.safeParse(part === 'body' ? (state.body ?? {}) : state[part]);
      if (!result.success) {
        const issues = issuesOf(result.error);
        throw new ValidationError(issues[0]?.message ?? 'Invalid request', issues);
      }
      state[part] = result.data;
    }
  },
});

/**
 * Maps domain errors to their status and `{ message }` (validation adds
 * `issues`). Anything else is a 500 with a generic message: no stack trace or
 * SDK error ever reaches a response. Registered last, so it runs first on error.
 */
export const errorHandler = (): MiddlewareObj<HttpEvent, HttpResult> => ({
  onError: (request) => {
    const { error } = request;
    if (isDomainError(error)) {
      const body: { message: string; issues?: unknown; errors?: unknown } = { message: error.message };
      if (error instanceof ValidationError && error.issues.length > 0) body.issues = error.issues;
      if (error instanceof RowsRejectedError) body.errors = error.rows;
      request.response = json(error.status, body);
      return;
    }
    log('error', 'unhandled error', {
      route: request.event.routeKey,
      error:
        error instanceof Error
          ? { name: error.name, message: error.message, stack: error.stack }
          : String(error),
    });
    request.response = json(500, { message: 'Something went wrong. Please try again.' });
  },
});

export type Service<Req extends RouteRequest, Res> = (request: HttpRequest<Req>) => Promise<Res | Reply<Res>>;

export type Middleware = MiddlewareObj<HttpEvent, HttpResult>;

/**
 * The one middy chain for HTTP handlers. A handler module is
 * `export const handler = httpHandler(routes.x, async (req) => service(...))`.
 */
export const httpHandler = <Req extends RouteRequest, Res>(
  definition: RouteDefinition<Req, Res>,
  service: Service<Req, Res>,
  middlewares: Middleware[] = [],
) => {
  const chain = middy<HttpEvent, HttpResult, Error, Context>()
    .use(requestLogger())
    .use(jsonBody(definition.contentType))
    .use(authorize(definition.method, definition.access, { sandboxExempt: definition.sandboxExempt }))
    .use(validate(definition as RouteDefinition));
  for (const middleware of middlewares) chain.use(middleware);
  return chain.use(errorHandler()).handler(async (event) => {
    const state = parsed.get(event) as State;
    const result = await service({
      event,
      params: state.params as HttpRequest<Req>['params'],
      query: state.query as HttpRequest<Req>['query'],
      body: state.body as HttpRequest<Req>['body'],
      cookies: parseCookies(event),
      user: userOf(event),
    });
    if (result instanceof Reply) {
      const { status = 200, cookies, headers } = result.options;
      return json(status, result.body, { ...(cookies ? { cookies } : {}), ...(headers ? { headers } : {}) });
    }
    return json(200, result);
  });
};
