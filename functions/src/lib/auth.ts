import { randomBytes } from 'node:crypto';
import { type Access, VIEWER_ADDRESS_HEADER } from '@curbside/api';
import {
  BUS_LINK_MISSING,
  type BusLinkKind,
  canPerform,
  DRIVER_LINK_REPLACED,
  ForbiddenError,
  hasMinimumRole,
  isStaffRole,
  LinkReplacedError,
  MUST_CHANGE_PASSWORD,
  rankOf,
  UnauthorizedError,
  type User,
} from '@curbside/domain';
import {
  authSessions,
  type BusLinkHolder,
  busLinks,
  callerReads,
  districts,
  type FoundItems,
  type KeyedRead,
  type PlaceKeys,
  schools,
  users,
} from '@curbside/store';
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { config } from './config';
import { db } from './context';
import { remember } from './remember';

export const SESSION_COOKIE = 'curbside_session';
/** A device's long-lived token: the accounts it signed in to keep an allowance of wrong passwords there. */
export const DEVICE_COOKIE = 'curbside_device';
const DEVICE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/**
 * Every cookie of an API Gateway cookies array or a Cookie header, as a name →
 * value map. A value that is not valid percent-encoding (`foo=%`) is left out,
 * so a malformed cookie makes the request anonymous, never a 500.
 */
export const parseCookies = (cookies: readonly string[] | string | undefined): Record<string, string> => {
  const pairs = typeof cookies === 'string' ? cookies.split(';') : (cookies ?? []);
  const parsed: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const name = pair.slice(0, at).trim();
    try {
      parsed[name] ??= decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      // Not percent-encoding: ignored, as if the cookie were not there.
    }
  }
  return parsed;
};

/** Reads one cookie out of an API Gateway cookies array or a Cookie header (undefined when malformed). */
export const cookieValue = (
  cookies: readonly string[] | string | undefined,
  name: string,
): string | undefined => parseCookies(cookies)[name];

/**
 * A session token: the user's id, then 256 random bits. The id lets a request
 * read the session and its user at once (`userOfToken`); only the random part
 * makes the token unguessable, and the stored session is what proves it.
 */
export const newSessionToken = (userId: number) => `${userId}-${randomBytes(32).toString('base64url')}`;

/** The user id a token names, if it has one (a token is only trusted once its session is found). */
export const userIdOfToken = (token: string): number | undefined => {
  const match = /^(\d{1,15})-/.exec(token);
  return match ? Number(match[1]) : undefined;
};

/** The signed-in user of a token, and the school and district asked for, as this request read them. */
interface Caller {
  user: User | null;
  /** The place asked for (`callerOfToken`'s second argument) with its records; undefined when not read. */
  place?: ReadPlace;
  /** What the sign-in's read found, the reads that rode with it included (undefined: no such read). */
  found?: FoundItems;
}

/** A read that goes in a request's sign-in read, and how to answer it. */
interface Rider {
  read: KeyedRead<unknown>;
  answer(found: FoundItems | Error): void;
}
const riders = new WeakMap<APIGatewayProxyEventV2, Rider[]>();

/**
 * Reads `read` in the same BatchGetItem as the request's sign-in (issue 54: a
 * route's early reads and the caller's in one call): answered once `authorize`
 * has read the caller, with what it found. Asked before `authorize` runs (a
 * route's early reads: `http.ts`). Should the sign-in read nothing (no
 * session, a token naming nobody) the read fails, and is the route's own to
 * make again; its answer reaches the route only for the user the sign-in is of.
 */
export const besideSignIn =
  (event: APIGatewayProxyEventV2) =>
  <T>(read: KeyedRead<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const answer = (found: FoundItems | Error) => {
        if (found instanceof Error) reject(found);
        else {
          try {
            resolve(read.from(found));
          } catch (error) {
            reject(error);
          }
        }
      };
      riders.set(event, [...(riders.get(event) ?? []), { read, answer }]);
    });

/** A request's way to put a keyed read in its sign-in's BatchGetItem (`besideSignIn`). */
export type SignInRead = ReturnType<typeof besideSignIn>;

/** The reads riding with this request's sign-in, taken once (`authorize` answers each). */
const ridersOf = (event: APIGatewayProxyEventV2): Rider[] => {
  const taken = riders.get(event) ?? [];
  riders.delete(event);
  return taken;
};

/**
 * The signed-in, active user of a session token and, when `place` is given,
 * that school's and district's records: the sign-in, the user the token names
 * and the place in one BatchGetItem; the session decides whose the token is
 * (another user is read after, should it name someone else).
 */
const callerOfToken = async (
  token: string | undefined,
  place?: PlaceKeys,
  also: readonly Rider[] = [],
): Promise<Caller> => {
  if (!token) return { user: null };
  const named = userIdOfToken(token);
  if (named === undefined) {
    const session = await authSessions.get(db, token);
    const user = session ? await users.get(db, session.userId) : undefined;
    return { user: user?.active ? user : null };
  }
  const riding = {
    keys: also.flatMap((rider) => rider.read.keys),
    consistent: also.some((rider) => rider.read.consistent),
  };
  const read = await callerReads(db, token, named, place, Date.now(), riding);
  if (!read.session) return { user: null };
  const user = read.user?.id === read.session.userId ? read.user : await users.get(db, read.session.userId);
  return {
    user: user?.active ? user : null,
    ...(place ? { place: { ...place, records: [read.school, read.district] } } : {}),
    found: read.found,
  };
};

/** The signed-in, active user of a session token, or null (the sign-in and its user in one read). */
export const userOfToken = async (token: string | undefined): Promise<User | null> =>
  (await callerOfToken(token)).user;

/**
 * The address a request came from, for per-address throttles: the visitor's
 * as CloudFront reports it where the handler sits behind CloudFront, else the
 * connection's own.
 */
export const clientAddress = (
  event: APIGatewayProxyEventV2,
  trustViewerAddress = config.trustViewerAddress,
) =>
  (trustViewerAddress ? event.headers[VIEWER_ADDRESS_HEADER] : undefined) ??
  event.requestContext.http.sourceIp;

const signedInUsers = new WeakMap<APIGatewayProxyEventV2, User | null>();

/** The user resolved by `authorize` for this request. */
export const userOf = (event: APIGatewayProxyEventV2): User | null => signedInUsers.get(event) ?? null;

const busLinkHolders = new WeakMap<APIGatewayProxyEventV2, BusLinkHolder>();

/** The bus link (driver page or bus map) the request came with, when `authorize` took one. */
export const busLinkOf = (event: APIGatewayProxyEventV2): BusLinkHolder | null =>
  busLinkHolders.get(event) ?? null;

/** The token of an `Authorization: Bearer <token>` header. */
export const bearerOf = (header: string | undefined): string | undefined => {
  const match = /^Bearer\s+(\S+)$/i.exec(header?.trim() ?? '');
  return match?.[1];
};

const isMutation = (method: string) => method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';

/**
 * Whether a browser's `Origin` may act with the session cookie: the site the
 * request was sent to (its Host), or one of the site origins the stack names
 * (behind CloudFront the Host is the API's own). No Origin (not a browser, or
 * a same-origin GET) passes: a page of another site always sends one.
 */
export const isAllowedOrigin = (
  origin: string | undefined,
  hosts: ReadonlyArray<string | undefined>,
): boolean => {
  if (!origin) return true;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false;
  }
  return [...hosts, ...config.allowedOrigins.map((o) => new URL(o).host)].includes(host);
};

/** A mutation from another site's page is refused (the cookie alone is not enough). */
const assertSameOrigin = (event: APIGatewayProxyEventV2) => {
  if (!isAllowedOrigin(event.headers.origin, [event.headers.host, event.headers['x-forwarded-host']])) {
    throw new ForbiddenError('Cross-site request refused');
  }
};

const SANDBOXED = 'Read-only mode: this school is in sandbox mode. Changes are not allowed.';

/** A school and district, and their records as this request read them. */
interface ReadPlace extends PlaceKeys {
  records: [{ sandbox?: boolean } | undefined, { sandbox?: boolean } | undefined];
}

/**
 * Where each staff member this instance signed in belongs, as it last signed
 * them in: which reads to start with their sign-in, never whether they may.
 * A change reads their school's and district's sandbox mode with the sign-in
 * (issue 33: one round trip, one call; the records are this request's own
 * reads, used only when the user still belongs there), and a route's early
 * reads (`EarlyReads` in http.ts) start for their school.
 */
const placeOfUser = new Map<number, PlaceKeys>();
const PLACES_KEPT = 10_000;

const knownPlace = (token: string | undefined): PlaceKeys | undefined => {
  const userId = token === undefined ? undefined : userIdOfToken(token);
  return userId === undefined ? undefined : placeOfUser.get(userId);
};

/** The school this instance last signed this staff member in at. */
export const knownSchoolOf = (userId: number): number | undefined =>
  placeOfUser.get(userId)?.schoolId ?? undefined;

/** Sandbox mode makes a school (or its whole district) read-only for all but super admins. */
export const assertWritable = async (user: User, read?: ReadPlace) => {
  if (user.role === 'super_admin') return;
  const same = read?.schoolId === user.schoolId && read?.districtId === user.districtId;
  const [school, district] =
    same && read
      ? read.records
      : await Promise.all([
          user.schoolId !== null ? schools.get(db, user.schoolId) : undefined,
          user.districtId !== null ? districts.get(db, user.districtId) : undefined,
        ]);
  if (school?.sandbox || district?.sandbox) throw new ForbiddenError(SANDBOXED);
};

/**
 * The same rule for a school a caller acts on without being its staff (a bus
 * driver's link; a parent linking a child there): the school's mode, or its district's.
 */
export const assertSchoolWritable = async (schoolId: number) => {
  const school = await schools.get(db, schoolId);
  const district = school?.districtId ? await districts.get(db, school.districtId) : undefined;
  if (school?.sandbox || district?.sandbox) throw new ForbiddenError(SANDBOXED);
};

/**
 * Why a bus link opens nothing here: a driver link the office replaced says
 * so, with the school's phone (issue 50: the page's way out when it can send
 * no alert; the office's number, nothing else of the school); any other is
 * a link the page does not have.
 */
const refusedLink = async (
  found: Awaited<ReturnType<typeof busLinks.lookup>>,
  kind: BusLinkKind,
): Promise<UnauthorizedError> => {
  if (found?.replaced && kind === 'driver' && found.holder.kind === 'driver') {
    const school = await schools.get(db, found.holder.schoolId);
    return new LinkReplacedError(DRIVER_LINK_REPLACED, school?.phone ?? null);
  }
  return new UnauthorizedError(BUS_LINK_MISSING[kind]);
};

/**
 * Enforces the route table's "who may call it": signs the request's user in
 * from the session cookie, checks the one-time password gate, rank, the
 * data-permission matrix, the sandbox rule and, on mutations, the Origin.
 */
export const authorize = (
  method: string,
  access: Access,
  options: { sandboxExempt?: boolean; beforeOwnPassword?: boolean } = {},
): MiddlewareObj<APIGatewayProxyEventV2> => ({
  before: async ({ event }) => {
    if (isMutation(method)) assertSameOrigin(event);
    const bearer =
      typeof access === 'object' && access.busLink ? bearerOf(event.headers.authorization) : undefined;
    if (typeof access === 'object' && access.busLink && bearer !== undefined) {
      // A page opened from a bus link: the link is its key, for its school only.
      const found = await busLinks.lookup(db, bearer);
      if (!found || found.replaced || found.holder.kind !== access.busLink)
        throw await refusedLink(found, access.busLink);
      const { holder } = found;
      for (const rider of ridersOf(event)) rider.answer(new Error('Read with no sign-in'));
      busLinkHolders.set(event, holder);
      signedInUsers.set(event, null);
      if (isMutation(method) && !options.sandboxExempt) await assertSchoolWritable(holder.schoolId);
      return;
    }
    const token = cookieValue(event.cookies, SESSION_COOKIE);
    const writes = isMutation(method) && !options.sandboxExempt;
    const also = ridersOf(event);
    const { user, place, found } = await callerOfToken(
      token,
      writes ? knownPlace(token) : undefined,
      also,
    ).catch((error: Error) => {
      for (const rider of also) rider.answer(error);
      throw error;
    });
    for (const rider of also) rider.answer(found ?? new Error('Read with no sign-in'));
    signedInUsers.set(event, user);
    if (user && isStaffRole(user.role)) {
      remember(placeOfUser, user.id, { schoolId: user.schoolId, districtId: user.districtId }, PLACES_KEPT);
    }
    if (access === 'public') return;
    if (!user) throw new UnauthorizedError('Not signed in');
    // A one-time password only lets its holder choose their own (then read themselves, or sign out).
    if (user.mustChangePassword && !options.beforeOwnPassword) throw new ForbiddenError(MUST_CHANGE_PASSWORD);
    if (access === 'signedIn') return;
    if (access === 'parent') {
      if (user.role !== 'parent') throw new ForbiddenError('Only parents can do this.');
      return;
    }
    if (access.orParent && user.role === 'parent') return;
    if (!isStaffRole(user.role) || !hasMinimumRole(user.role, access.minRole)) {
      throw new ForbiddenError("You don't have permission to do this.");
    }
    if (access.data && !canPerform(user.role, access.data)) {
      throw new ForbiddenError("You don't have permission to do this.");
    }
    if (writes && rankOf(user.role) > 0) await assertWritable(user, place);
  },
});

/** `Secure` everywhere but plain-http localhost. */
const secureFor = (event: APIGatewayProxyEventV2) => {
  const host = (event.headers.host ?? '').split(':')[0] ?? '';
  return !(host === 'localhost' || host === '127.0.0.1' || host === '[::1]');
};

export const sessionCookie = (event: APIGatewayProxyEventV2, token: string, maxAgeSeconds: number) =>
  [
    `${SESSION_COOKIE}=${encodeURIComponent(token)}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${maxAgeSeconds}`,
    ...(secureFor(event) ? ['Secure'] : []),
  ].join('; ');

/**
 * The single sign-on state, bound to this browser for the trip to Clever and
 * back (`Path=/api/auth`, 10 minutes; `SameSite=Lax` comes back on Clever's
 * top-level redirect). Without a state: the cookie is cleared.
 */
export const ssoStateCookie = (event: APIGatewayProxyEventV2, name: string, state: string | null) =>
  [
    `${name}=${state ?? ''}`,
    'Path=/api/auth',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${state ? 600 : 0}`,
    ...(secureFor(event) ? ['Secure'] : []),
  ].join('; ');

/** The device cookie, sent with sign-ins only (`Path=/api`). */
export const deviceCookie = (event: APIGatewayProxyEventV2, token: string) =>
  [
    `${DEVICE_COOKIE}=${encodeURIComponent(token)}`,
    'Path=/api',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${DEVICE_COOKIE_MAX_AGE_SECONDS}`,
    ...(secureFor(event) ? ['Secure'] : []),
  ].join('; ');

/** The cookies a sign-in sets: the session and the device. */
export const signedInCookies = (
  event: APIGatewayProxyEventV2,
  signedIn: { token: string; maxAgeSeconds: number; deviceToken: string },
) => [
  sessionCookie(event, signedIn.token, signedIn.maxAgeSeconds),
  deviceCookie(event, signedIn.deviceToken),
];

export const clearedSessionCookie = (event: APIGatewayProxyEventV2) =>
  [
    `${SESSION_COOKIE}=`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    'Max-Age=0',
    ...(secureFor(event) ? ['Secure'] : []),
  ].join('; ');
