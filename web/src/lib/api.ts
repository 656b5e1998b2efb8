import {
  type BodyOf,
  fillPath,
  type ParamsOf,
  type QueryOf,
  type ResponseOf,
  type RouteDefinition,
} from '@curbside/api';
import { request } from './http';
import { idempotencyKey, sendOnce } from './idempotency';

type Part<K extends string, T> = [T] extends [undefined]
  ? { [P in K]?: undefined }
  : object extends T
    ? { [P in K]?: T }
    : { [P in K]: T };

/**
 * What a call to route `R` needs: `params`, `query` and `body`, each required
 * when the route declares it (a query whose fields are all optional may be left out).
 */
export type ApiInput<R> = Part<'params', ParamsOf<R>> & Part<'query', QueryOf<R>> & Part<'body', BodyOf<R>>;

type ApiArgs<R> = object extends ApiInput<R> ? [input?: ApiInput<R>] : [input: ApiInput<R>];

type QueryValue = string | number | boolean | null | undefined;

/** `?a=1&b=x` from a query object; `undefined` and `null` values are left out, arrays repeat the key. */
export const toSearch = (query: Record<string, QueryValue | QueryValue[]> | undefined): string => {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null) search.append(key, String(item));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
};

/** The URL of one call: the route's path filled with `params`, plus the query string. */
export const urlOf = <R extends RouteDefinition>(route: R, input?: ApiInput<R>): string =>
  fillPath(route.path, (input?.params ?? undefined) as Record<string, string | number> | undefined) +
  toSearch(input?.query as Record<string, QueryValue> | undefined);

/**
 * The typed client, generated from the route table:
 * `api(routes.health)`, `api(routes.endSession, { params: { id: 3 } })`.
 */
export const api = <R extends RouteDefinition>(route: R, ...[input]: ApiArgs<R>): Promise<ResponseOf<R>> =>
  apiKeyed(idempotencyKey(), route, ...([input] as ApiArgs<R>));

/**
 * A call sent with a given `Idempotency-Key` (mutations only; reads send
 * none): one user action keeps its key through every retry, so the server
 * applies it once. `api` makes a new key per call.
 */
export const apiKeyed = <R extends RouteDefinition>(
  key: string,
  route: R,
  ...[input]: ApiArgs<R>
): Promise<ResponseOf<R>> =>
  route.method === 'GET'
    ? request<ResponseOf<R>>(route.method, urlOf(route, input), input?.body, route.contentType)
    : sendOnce(key, (headers) =>
        request<ResponseOf<R>>(route.method, urlOf(route, input), input?.body, route.contentType, headers),
      );

/**
 * The same call made with a bus link instead of a sign-in (the driver page,
 * the bus map): the link's token goes as `Authorization: Bearer`.
 */
export const apiWithLink = <R extends RouteDefinition>(
  token: string,
  route: R,
  ...[input]: ApiArgs<R>
): Promise<ResponseOf<R>> => {
  const authorization = `Bearer ${token}`;
  return route.method === 'GET'
    ? request<ResponseOf<R>>(route.method, urlOf(route, input), input?.body, route.contentType, {
        authorization,
      })
    : sendOnce(idempotencyKey(), (headers) =>
        request<ResponseOf<R>>(route.method, urlOf(route, input), input?.body, route.contentType, {
          authorization,
          ...headers,
        }),
      );
};
