import type { BusLinkKind, StaffRole } from '@curbside/domain';
import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route.
 * - `public`: anyone, signed in or not.
 * - `signedIn`: any signed-in user (staff or parent).
 * - `parent`: a signed-in parent.
 * - `{ minRole }`: staff ranked at least `minRole`; with `data`, the
 *   data-permission matrix (and the sandbox rule) also applies; with
 *   `orParent`, a signed-in parent too (the service keeps them to their own
 *   children).
 */
export type Access =
  | 'public'
  | 'signedIn'
  | 'parent'
  | {
      minRole: StaffRole;
      data?: 'create' | 'update' | 'delete' | 'import';
      /**
       * Also open to a holder of the school's bus link of this kind, sent as
       * `Authorization: Bearer <token>` (the driver page and the bus map have
       * no login: their link is their key).
       */
      busLink?: BusLinkKind;
      /** Also open to a signed-in parent (a family's change of their child's way home, issue 51). */
      orParent?: true;
    };

export interface RouteRequest {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
}

/**
 * The part of the product a route belongs to. In AWS the routes of one area
 * are served by one function (which gets only the access its routes need);
 * the list is kept short on purpose: a new route joins an area.
 * - `auth`: sign-in, sign-out, the current user, health
 * - `carLine`: pickup sessions, queue, batches, alerts (running a dismissal)
 * - `teacher`: classrooms, the teacher's students, releases, pickup codes
 * - `admin`: schools, districts, users and the school's rosters, CSV import
 * - `parent`: the parent portal and the invite links
 * - `bus`: bus driver and bus map links
 * - `sis`: the student-information-system (Clever) import
 */
export const AREAS = ['auth', 'carLine', 'teacher', 'admin', 'parent', 'bus', 'sis'] as const;
export type Area = (typeof AREAS)[number];

export interface RouteDefinition<Req extends RouteRequest = RouteRequest, Res = unknown> {
  /** Handler module name: `functions/src/http/{name}.ts`. */
  name: string;
  /** The area whose function serves the route (see `AREAS`). */
  area: Area;
  method: HttpMethod;
  /** API Gateway path, e.g. `/api/sessions/{id}/end`. */
  path: string;
  request: Req;
  access: Access;
  /** The sandbox mode switch itself stays writable in sandbox mode. */
  sandboxExempt?: boolean;
  /**
   * Answers a user signed in with a one-time password before they set their
   * own (their account, the password change); every other signed-in route
   * refuses them (`MUST_CHANGE_PASSWORD`). Routes open to everyone stay open.
   */
  beforeOwnPassword?: boolean;
  /**
   * The media type of the request body; `application/json` when absent. A
   * mutation whose body is of another type answers 415 (a cross-site form can
   * send `text/plain`). A `text/csv` body reaches the service as text.
   */
  contentType?: 'application/json' | 'text/csv';
  /** Phantom field carrying the response type for the typed client: `returns<T>()`. */
  readonly response?: Res;
}

/** Marks a route's response type: `response: returns<{ ok: true }>()`. */
export const returns = <T>(): T | undefined => undefined;

/** A route as an area's table writes it: its name is its key, its area the table's. */
export type RouteSpec<Req extends RouteRequest = RouteRequest, Res = unknown> = Omit<
  RouteDefinition<Req, Res>,
  'name' | 'area'
>;

export const route = <const Req extends RouteRequest, Res>(
  definition: RouteSpec<Req, Res>,
): RouteSpec<Req, Res> => definition;

/** An area's route table: each route named after its key and served by the area's function. */
export const areaRoutes = <const T extends Record<string, RouteSpec<RouteRequest, unknown>>>(
  area: Area,
  table: T,
) =>
  Object.fromEntries(
    Object.entries(table).map(([name, definition]) => [name, { ...definition, name, area }]),
  ) as {
    [K in keyof T]: T[K] extends RouteSpec<infer Req, infer Res>
      ? RouteDefinition<Req, Res> & { name: K }
      : never;
  };

/** `GET /api/health` → `GET /api/health`; the HTTP API route key. */
export const routeKeyOf = (definition: Pick<RouteDefinition, 'method' | 'path'>): string =>
  `${definition.method} ${definition.path}`;

export type ParamsOf<R> =
  R extends RouteDefinition<infer Req, unknown>
    ? Req['params'] extends z.ZodType
      ? z.input<Req['params']>
      : undefined
    : never;
export type QueryOf<R> =
  R extends RouteDefinition<infer Req, unknown>
    ? Req['query'] extends z.ZodType
      ? z.input<Req['query']>
      : undefined
    : never;
export type BodyOf<R> =
  R extends RouteDefinition<infer Req, unknown>
    ? Req['body'] extends z.ZodType
      ? z.input<Req['body']>
      : undefined
    : never;
export type ResponseOf<R> = R extends RouteDefinition<RouteRequest, infer Res> ? Res : never;

/**
 * Matches a concrete path against a route path template. Answers the path
 * parameters, or null when the path does not match.
 */
export const matchPath = (template: string, path: string): Record<string, string> | null => {
  const want = template.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const segment = want[i] as string;
    const actual = got[i] as string;
    if (segment.startsWith('{') && segment.endsWith('}')) {
      if (actual === '') return null;
      params[segment.slice(1, -1)] = decodeURIComponent(actual);
    } else if (segment !== actual) {
      return null;
    }
  }
  return params;
};

/** Fills a path template with parameters: `/api/x/{id}` + `{id: 3}` → `/api/x/3`. */
export const fillPath = (template: string, params: Record<string, string | number> = {}): string =>
  template.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`Missing path parameter ${key} for ${template}`);
    return encodeURIComponent(String(value));
  });
