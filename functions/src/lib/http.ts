import {
  REQUEST_ID_HEADER,
  REQUEST_ID_PATTERN,
  type RouteDefinition,
  type RouteRequest,
} from '@curbside/api';
import {
  ConflictError,
  type DomainError,
  ForbiddenError,
  GoneError,
  isDomainError,
  LinkReplacedError,
  NotComingError,
  NotFoundError,
  OutsideGeofenceError,
  RowsRejectedError,
  TooManyRequestsError,
  UnauthorizedError,
  UnavailableError,
  UnreleasedStudentsError,
  type User,
  ValidationError,
} from '@curbside/domain';
import type { BusLinkHolder } from '@curbside/store';
import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { z } from 'zod';
import {
  authorize,
  besideSignIn,
  busLinkOf,
  cookieValue,
  parseCookies,
  SESSION_COOKIE,
  userIdOfToken,
  userOf,
} from './auth';
import { config } from './config';
import { edgeChecks, RefusedAtEdgeError } from './edge';
import { headerIn, JSON_HEADERS } from './headers';
import {
  IdempotencyKeyReusedError,
  IdempotencyKeyTakenError,
  idempotentMutations,
  replayOf,
  runKeyed,
  STILL_APPLYING,
} from './idempotency';
import { addLogKeys, beginInvocation, flushMetrics, log } from './log';
import { bodyText } from './request-body';

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** A route's request as its schemas validated it: what its early reads start from. */
export interface RouteInput<Req extends RouteRequest> {
  params: Out<Req['params']>;
  query: Out<Req['query']>;
  body: Out<Req['body']>;
}

/** What a route's service function receives: the parsed, validated request. */
export interface HttpRequest<Req extends RouteRequest, Early = never> extends RouteInput<Req> {
  event: APIGatewayProxyEventV2;
  /** Cookies as a name → value map. */
  cookies: Record<string, string>;
  /** The signed-in user (always set on routes that are not public, unless a bus link came instead). */
  user: User | null;
  /** The bus link the page sent instead of a sign-in (routes open to one: `access.busLink`). */
  busLink: BusLinkHolder | null;
  /** What the route's early reads (`EarlyReads`) started for the signed-in user, if they did. */
  early?: Promise<Early>;
}

/** A reply other than a plain 200 JSON body: another status, cookies or headers. */
export class Reply<T = unknown> {
  constructor(
    readonly body: T,
    readonly options: {
      status?: number;
      cookies?: string[];
      headers?: Record<string, string>;
      /** The body is text sent as it is (with its content-type in `headers`), not JSON. */
      text?: boolean;
    } = {},
  ) {}
}

export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResult = APIGatewayProxyStructuredResultV2;

const json = (statusCode: number, body: unknown, extra: Partial<HttpResult> = {}): HttpResult => ({
  statusCode,
  headers: { ...JSON_HEADERS, ...extra.headers },
  body: body === undefined ? '' : JSON.stringify(body),
  ...(extra.cookies && extra.cookies.length > 0 ? { cookies: extra.cookies } : {}),
});

interface State {
  params: unknown;
  query: unknown;
  body: unknown;
}
/** A request's parts as its route's schemas read them, or why they do not (thrown in its turn). */
type Parsed = { ok: true; state: State } | { ok: false; error: unknown };
/** Parsed request parts, keyed by the event they came from: read once, whoever asks first. */
const parsed = new WeakMap<HttpEvent, Parsed>();

const issuesOf = (error: z.ZodError) =>
  error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));

/** The request's reference: the client's `X-Request-Id` when it is one, else API Gateway's request id. */
export const requestIdOf = (event: HttpEvent): string => {
  const sent = event.headers?.[REQUEST_ID_HEADER];
  return sent !== undefined && REQUEST_ID_PATTERN.test(sent) ? sent : event.requestContext.requestId;
};

/**
 * The first middleware: names the invocation's log lines (request id,
 * function, route), logs one line per request (route, status, duration, and
 * the caller's school and user once known), sends the request's metrics, and
 * echoes the request id in the answer (`X-Request-Id`).
 */
export const requestLogger = (): MiddlewareObj<HttpEvent, HttpResult> => {
  const started = new WeakMap<object, number>();
  const done = (request: { event: HttpEvent; response: HttpResult | undefined | null }) => {
    const start = started.get(request.event) ?? Date.now();
    if (request.response) {
      request.response.headers = {
        ...request.response.headers,
        [REQUEST_ID_HEADER]: requestIdOf(request.event),
      };
    }
    addLogKeys(callerKeys(request.event));
    log('info', 'request', { status: request.response?.statusCode, ms: Date.now() - start });
    flushMetrics();
  };
  return {
    before: (request) => {
      started.set(request.event, Date.now());
      beginInvocation(request.context, {
        request_id: requestIdOf(request.event),
        route: request.event.routeKey,
      });
    },
    after: done,
    onError: done,
  };
};

/** The caller's school and user (ids only), once `authorize` knows them. */
const callerKeys = (event: HttpEvent) => {
  const user = userOf(event);
  return { school_id: user?.schoolId ?? busLinkOf(event)?.schoolId ?? undefined, user_id: user?.id };
};

/** After `authorize`: the caller's school and user on every later line of the request. */
const logCaller = (): Middleware => ({
  before: ({ event }) => addLogKeys(callerKeys(event)),
});

/** A body of a media type the route does not take: 415, a transport matter (no domain error). */
export class UnsupportedMediaTypeError extends Error {
  override name = 'UnsupportedMediaTypeError';
}

const mediaTypeOf = (event: HttpEvent): string | undefined => {
  const header = headerIn(event.headers, 'content-type');
  return header?.split(';')[0]?.trim().toLowerCase() || undefined;
};

/**
 * Reads the body as the route declares it (`contentType`, JSON by default).
 * A non-empty body of another media type answers 415 (a cross-site form can
 * post `text/plain`, never `application/json`); unparseable JSON answers 400,
 * never 500. A `text/csv` body reaches validation and the service as text.
 */
const bodyOf = (definition: Pick<RouteDefinition, 'contentType'>, event: HttpEvent): unknown => {
  const expected = definition.contentType ?? 'application/json';
  if (event.body === undefined || event.body === null || event.body === '') return undefined;
  if (mediaTypeOf(event) !== expected) {
    throw new UnsupportedMediaTypeError(`Send the request body as ${expected}`);
  }
  const text = bodyText(event) as string;
  if (expected !== 'application/json') return text;
  try {
    return JSON.parse(text);
  } catch {
    throw new ValidationError('Request body is not valid JSON');
  }
};

/** Validates params, query and body with the route's zod schemas: 400 `{ message, issues }`. */
const validated = (definition: RouteDefinition, sent: State): State => {
  const state = { ...sent };
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
  return state;
};

/** The request as its route reads it (body by media type, then every part by its schema), read once. */
const parsedOf = (definition: RouteDefinition, event: HttpEvent): Parsed => {
  const known = parsed.get(event);
  if (known) return known;
  let outcome: Parsed;
  try {
    const sent = {
      params: event.pathParameters ?? {},
      query: event.queryStringParameters ?? {},
      body: bodyOf(definition, event),
    };
    outcome = { ok: true, state: validated(definition, sent) };
  } catch (error) {
    outcome = { ok: false, error };
  }
  parsed.set(event, outcome);
  return outcome;
};

/**
 * The request's body and parts, validated with the route's schemas: 415 for
 * a body of another media type, 400 `{ message, issues }` for one that does
 * not pass (after `authorize`: a caller who may not gets 401/403 whatever they sent).
 */
export const requestInput = (definition: RouteDefinition): Middleware => ({
  before: ({ event }) => {
    const outcome = parsedOf(definition, event);
    if (!outcome.ok) throw outcome.error;
  },
});

/**
 * Maps domain errors to their status and `{ message }` (validation adds
 * `issues`). Anything else is a 500 with a generic message: no stack trace or
 * SDK error ever reaches a response. Registered last, so it runs first on error.
 */
/** The one place a domain error becomes an HTTP status (the first class it is an instance of). */
const STATUS_OF_ERROR: ReadonlyArray<readonly [abstract new (...args: never[]) => DomainError, number]> = [
  [ValidationError, 400],
  [UnauthorizedError, 401],
  [ForbiddenError, 403],
  [NotFoundError, 404],
  [ConflictError, 409],
  [GoneError, 410],
  [TooManyRequestsError, 429],
  [UnavailableError, 503],
];
export const statusOf = (error: DomainError): number =>
  STATUS_OF_ERROR.find(([kind]) => error instanceof kind)?.[1] ?? 500;

/** The answer to an error: its status and `{ message }` (500 with a generic message for anything unknown). */
export const errorResponseOf = (error: unknown): HttpResult => {
  if (error instanceof RefusedAtEdgeError) return json(403, { message: 'Forbidden' });
  if (error instanceof UnsupportedMediaTypeError) return json(415, { message: error.message });
  if (error instanceof IdempotencyKeyReusedError) return json(422, { message: error.message });
  // A retry's transaction found its key: answered by the idempotency middleware with the first answer.
  if (error instanceof IdempotencyKeyTakenError) return json(409, { message: STILL_APPLYING });
  if (isDomainError(error)) {
    const body: Record<string, unknown> & { message: string } = { message: error.message };
    if (error instanceof ValidationError && error.issues.length > 0) body.issues = error.issues;
    if (error instanceof RowsRejectedError) body.errors = error.rows;
    if (error instanceof LinkReplacedError)
      Object.assign(body, { replaced: true, schoolPhone: error.schoolPhone });
    if (error instanceof UnreleasedStudentsError) body.unreleased = error.unreleased;
    if (error instanceof OutsideGeofenceError) body.distanceM = error.distanceM;
    if (error instanceof NotComingError) body.notComing = error.notComing;
    return json(statusOf(error), body);
  }
  log('error', 'unhandled error', {
    error:
      error instanceof Error
        ? { name: error.name, message: error.message, stack: error.stack }
        : String(error),
  });
  return json(500, { message: 'Something went wrong. Please try again.' });
};

export const errorHandler = (): MiddlewareObj<HttpEvent, HttpResult> => ({
  onError: (request) => {
    request.response = errorResponseOf(request.error);
  },
});

export type Service<Req extends RouteRequest, Res, Early = never> = (
  request: HttpRequest<Req, Early>,
) => Promise<Res | Reply<Res>>;

/**
 * Reads a route starts while its caller is still being checked (issue 33: the
 * caller's read and the route's own in one round trip, where they were two),
 * for the user the session token names, from the route's validated input (a
 * request its schemas refuse starts none); `undefined` starts none. They only
 * start what this instance already knows that user reads (their school's
 * session, their last poll's plan), and they reach the service only once that
 * user is the one signed in; otherwise they are dropped, never answered.
 * Each route's are beside it, in `functions/src/http/` (issue 56). `signIn`
 * puts a keyed read in the sign-in's own BatchGetItem (issue 54: one call for both).
 */
export type EarlyReads<Req extends RouteRequest, Early> = (
  userId: number,
  input: RouteInput<Req>,
  signIn: ReturnType<typeof besideSignIn>,
) => Promise<Early> | undefined;

/** The early reads started for a request, and for whom. */
const earlyStarted = new WeakMap<HttpEvent, { userId: number; reads: Promise<unknown> }>();

/**
 * Starts the route's early reads beside the caller's sign-in: the request is
 * validated first (cheap; its verdict is answered after `authorize`), so a
 * read starts only from input the route would take.
 */
const startEarly = <Req extends RouteRequest>(
  definition: RouteDefinition<Req>,
  early: EarlyReads<Req, unknown>,
): Middleware => ({
  before: ({ event }) => {
    const token = cookieValue(event.cookies, SESSION_COOKIE);
    const userId = token === undefined ? undefined : userIdOfToken(token);
    if (userId === undefined) return;
    const outcome = parsedOf(definition as RouteDefinition, event);
    if (!outcome.ok) return;
    const reads = early(userId, outcome.state as RouteInput<Req>, besideSignIn(event));
    if (!reads) return;
    // A request refused before its service runs leaves them unread, its failure with them.
    reads.catch(() => undefined);
    earlyStarted.set(event, { userId, reads });
  },
});

/** The early reads of this request, when they were started for the user now signed in. */
const earlyOf = <Early>(event: HttpEvent, user: User | null): Promise<Early> | undefined => {
  const started = earlyStarted.get(event);
  return started && user && started.userId === user.id ? (started.reads as Promise<Early>) : undefined;
};

export type Middleware = MiddlewareObj<HttpEvent, HttpResult>;

/**
 * The one middy chain for HTTP handlers. A handler module is
 * `export const handler = httpHandler(routes.x, async (req) => service(...))`.
 */
export const httpHandler = <Req extends RouteRequest, Res, Early = never>(
  definition: RouteDefinition<Req, Res>,
  service: Service<Req, Res, Early>,
  middlewares: Middleware[] = [],
  options: { early?: EarlyReads<Req, Early> } = {},
) => {
  const chain = middy<HttpEvent, HttpResult, Error, Context>()
    .use(requestLogger())
    .use(edgeChecks<HttpEvent, HttpResult>());
  if (options.early) chain.use(startEarly(definition, options.early));
  chain
    // Who may call comes first (early reads only read): a caller who may not gets 401/403 whatever they sent.
    .use(
      authorize(definition.method, definition.access, {
        sandboxExempt: definition.sandboxExempt,
        beforeOwnPassword: definition.beforeOwnPassword,
      }),
    )
    .use(logCaller())
    .use(requestInput(definition as RouteDefinition));
  for (const middleware of middlewares) chain.use(middleware);
  // Last before the error handler: sees the answer as it is sent (errors already mapped) and keeps it.
  chain.use(idempotentMutations(definition.name, errorResponseOf));
  return chain.use(errorHandler()).handler(async (event) => {
    const replayed = replayOf(event);
    if (replayed) return replayed;
    const { state } = parsedOf(definition as RouteDefinition, event) as Parsed & { ok: true };
    const user = userOf(event);
    const result = await runKeyed(event, () =>
      service({
        event,
        params: state.params as HttpRequest<Req>['params'],
        query: state.query as HttpRequest<Req>['query'],
        body: state.body as HttpRequest<Req>['body'],
        cookies: parseCookies(event.cookies),
        user,
        busLink: busLinkOf(event),
        early: earlyOf<Early>(event, user),
      }),
    );
    if (result instanceof Reply) {
      const { status = 200, cookies, headers, text } = result.options;
      if (text) {
        return {
          statusCode: status,
          headers: { 'cache-control': 'no-store', ...headers },
          body: String(result.body),
        };
      }
      return json(status, result.body, { ...(cookies ? { cookies } : {}), ...(headers ? { headers } : {}) });
    }
    return json(200, result);
  });
};

/**
 * The site's own address, for links: the stack's site origin when it names
 * one (behind CloudFront the Host is the API's), else the request's host.
 */
export const siteOrigin = (event: APIGatewayProxyEventV2): string => {
  const [configured] = config.allowedOrigins;
  if (configured) return configured.replace(/\/$/, '');
  const host = event.headers['x-forwarded-host'] ?? event.headers.host ?? 'localhost';
  const local = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(host);
  const proto = event.headers['x-forwarded-proto'] ?? (local ? 'http' : 'https');
  return `${proto}://${host}`;
};
