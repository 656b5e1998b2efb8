/** HTTP requests to API Gateway HTTP API (payload format 2.0) events, and handler results back to responses. */
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { matchPath, type RouteDefinition, routeKeyOf, routeList } from '@curbside/api';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/** The parts of a Node `IncomingMessage` the translation reads. */
export interface RequestLike {
  method?: string | undefined;
  url?: string | undefined;
  httpVersion?: string;
  headers: IncomingHttpHeaders;
  socket?: { remoteAddress?: string | undefined } | null;
}

type RouteLike = Pick<RouteDefinition, 'name' | 'method' | 'path'>;

export type RouteMatch<R extends RouteLike = RouteDefinition> =
  | { kind: 'route'; route: R; routeKey: string; pathParameters: Record<string, string> }
  /** The path is known but not with this method (405). */
  | { kind: 'method'; allowed: string[] }
  | { kind: 'none' };

/** Literal segments outrank `{param}` segments, left to right, as API Gateway picks the most specific route. */
const specificity = (a: RouteLike, b: RouteLike): number => {
  const as = a.path.split('/');
  const bs = b.path.split('/');
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    const aParam = (as[i] ?? '').startsWith('{');
    const bParam = (bs[i] ?? '').startsWith('{');
    if (aParam !== bParam) return aParam ? 1 : -1;
  }
  return 0;
};

/**
 * The routes of a table by their number of segments and their third (`api` in `/api/x/…`: `x`),
 * `*` for a parameter there, each list in the table's order: a path is tried only against the
 * routes it can match (`matchPath` needs as many segments and equal literals), not all of them —
 * API Gateway's routing, which in AWS is not on the function's thread (h54m).
 */
const indexes = new WeakMap<readonly RouteLike[], Map<string, { route: RouteLike; at: number }[]>>();
const bucketOf = (segments: string[], literal: boolean) =>
  `${segments.length}/${literal ? (segments[2] ?? '') : '*'}`;
const routesThatMayMatch = (routes: readonly RouteLike[], path: string): RouteLike[] => {
  let index = indexes.get(routes);
  if (!index) {
    index = new Map();
    for (const [at, route] of routes.entries()) {
      const segments = route.path.split('/');
      const third = segments[2] ?? '';
      const key = bucketOf(segments, !(third.startsWith('{') && third.endsWith('}')));
      index.set(key, [...(index.get(key) ?? []), { route, at }]);
    }
    indexes.set(routes, index);
  }
  const segments = path.split('/');
  return [...(index.get(bucketOf(segments, true)) ?? []), ...(index.get(bucketOf(segments, false)) ?? [])]
    .sort((a, b) => a.at - b.at)
    .map(({ route }) => route);
};

/** Finds the route for a method and raw path in the route table (or `routes`). */
export function matchRoute(method: string, path: string): RouteMatch;
export function matchRoute<R extends RouteLike>(
  method: string,
  path: string,
  routes: readonly R[],
): RouteMatch<R>;
export function matchRoute(
  method: string,
  path: string,
  routes: readonly RouteLike[] = routeList,
): RouteMatch<RouteLike> {
  const candidates: { route: RouteLike; params: Record<string, string> }[] = [];
  for (const route of routesThatMayMatch(routes, path)) {
    let params: Record<string, string> | null;
    try {
      params = matchPath(route.path, path);
    } catch {
      params = null; // a malformed %-escape in a parameter matches nothing
    }
    if (params) candidates.push({ route, params });
  }
  const sameMethod = candidates
    .filter((c) => c.route.method === method.toUpperCase())
    .sort((a, b) => specificity(a.route, b.route));
  const best = sameMethod[0];
  if (best) {
    return {
      kind: 'route',
      route: best.route,
      routeKey: routeKeyOf(best.route),
      pathParameters: best.params,
    };
  }
  if (candidates.length > 0) {
    return { kind: 'method', allowed: [...new Set(candidates.map((c) => c.route.method))] };
  }
  return { kind: 'none' };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/** API Gateway's request time format: `12/Mar/2020:19:03:58 +0000`. */
export const requestTime = (date: Date): string =>
  `${pad(date.getUTCDate())}/${MONTHS[date.getUTCMonth()]}/${date.getUTCFullYear()}:` +
  `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`;

/** The client address without the IPv4-mapped IPv6 prefix. */
export const sourceIpOf = (request: RequestLike): string =>
  (request.socket?.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');

/** Splits a URL into its raw path and raw query string (no `?`). */
export const splitUrl = (url: string): { rawPath: string; rawQueryString: string } => {
  const at = url.indexOf('?');
  return at < 0
    ? { rawPath: url, rawQueryString: '' }
    : { rawPath: url.slice(0, at), rawQueryString: url.slice(at + 1) };
};

/** Query parameters as API Gateway v2 gives them: decoded, repeated names comma-joined; undefined when none. */
export const queryParameters = (rawQueryString: string): Record<string, string> | undefined => {
  if (rawQueryString === '') return undefined;
  const result: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(rawQueryString)) {
    result[name] = name in result ? `${result[name]},${value}` : value;
  }
  return Object.keys(result).length > 0 ? result : undefined;
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as UTF-8 text, or base64 when the bytes are not valid UTF-8. */
export const encodeBody = (body: Buffer): { body?: string; isBase64Encoded: boolean } => {
  if (body.length === 0) return { isBase64Encoded: false };
  try {
    return { body: utf8.decode(body), isBase64Encoded: false };
  } catch {
    return { body: body.toString('base64'), isBase64Encoded: true };
  }
};

export interface HttpEventInput {
  request: RequestLike;
  body: Buffer;
  /** From `matchRoute`. */
  routeKey: string;
  pathParameters?: Record<string, string> | undefined;
  requestId?: string;
  now?: Date;
}

/** Builds the payload format 2.0 event API Gateway would pass for this request. */
export const toHttpEvent = ({
  request,
  body,
  routeKey,
  pathParameters,
  requestId = randomUUID(),
  now = new Date(),
}: HttpEventInput): APIGatewayProxyEventV2 => {
  const method = (request.method ?? 'GET').toUpperCase();
  const { rawPath, rawQueryString } = splitUrl(request.url ?? '/');
  const sourceIp = sourceIpOf(request);

  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name === 'cookie') continue;
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  headers['x-forwarded-for'] ??= sourceIp;
  headers['x-forwarded-proto'] ??= 'http';
  const host = request.headers.host ?? 'localhost';
  const domainName = host.replace(/:\d+$/, '');
  headers['x-forwarded-port'] ??= /:(\d+)$/.exec(host)?.[1] ?? '80';

  const cookieHeader = request.headers.cookie;
  const cookies = (cookieHeader ?? '')
    .split('; ')
    .map((cookie) => cookie.trim())
    .filter((cookie) => cookie !== '');
  const queryStringParameters = queryParameters(rawQueryString);
  const hasParams = pathParameters !== undefined && Object.keys(pathParameters).length > 0;

  return {
    version: '2.0',
    routeKey,
    rawPath,
    rawQueryString,
    ...(cookies.length > 0 ? { cookies } : {}),
    headers,
    ...(queryStringParameters ? { queryStringParameters } : {}),
    ...(hasParams ? { pathParameters } : {}),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName,
      domainPrefix: domainName.split('.')[0] ?? domainName,
      http: {
        method,
        path: rawPath,
        protocol: `HTTP/${request.httpVersion ?? '1.1'}`,
        sourceIp,
        userAgent: request.headers['user-agent'] ?? '',
      },
      requestId,
      routeKey,
      stage: '$default',
      time: requestTime(now),
      timeEpoch: now.getTime(),
    },
    ...encodeBody(body),
  };
};

export interface HttpResponse {
  statusCode: number;
  /** Ready for `response.writeHead`; `set-cookie` is an array, one header per cookie. */
  headers: Record<string, string | string[]>;
  body: Buffer;
}

const isStructured = (result: unknown): result is APIGatewayProxyStructuredResultV2 =>
  typeof result === 'object' && result !== null && 'statusCode' in result;

/**
 * Turns what a handler answered into the HTTP response API Gateway would send.
 * A result without `statusCode` is a 200 JSON body: a string as it is, anything else as JSON.
 */
export const fromHttpResult = (result: unknown): HttpResponse => {
  if (!isStructured(result)) {
    const text = result === undefined ? '' : typeof result === 'string' ? result : JSON.stringify(result);
    return {
      statusCode: 200,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(text, 'utf8'),
    };
  }
  const headers: Record<string, string | string[]> = {};
  const setCookies: string[] = [];
  for (const [name, value] of Object.entries(result.headers ?? {})) {
    const key = name.toLowerCase();
    if (key === 'set-cookie') setCookies.push(String(value));
    else headers[key] = String(value);
  }
  setCookies.push(...(result.cookies ?? []));
  if (setCookies.length > 0) headers['set-cookie'] = setCookies;
  const raw = result.body ?? '';
  const body = result.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
  return { statusCode: result.statusCode ?? 200, headers, body };
};
