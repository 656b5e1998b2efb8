import { randomBytes } from 'node:crypto';
import type { User } from '@curbside/domain';
import { cleverLinks, ssoStates, users } from '@curbside/store';
import { DEVICE_COOKIE } from '../lib/auth';
import { cleverSso, cleverSsoSecret } from '../lib/clever-config';
import { db } from '../lib/context';
import { log } from '../lib/log';
import { type SignedIn, signInVouched } from './auth';

/**
 * Single sign-on through Clever (OAuth 2.0 authorization code, as
 * dev.clever.com documents it).
 *
 * `GET /api/auth/login` makes a state, keeps its hash (single use, 10
 * minutes) and binds it to the browser with a cookie, then sends the browser
 * to Clever's authorize page. Clever sends it back to the callback with a
 * code; the callback checks the state against the cookie and takes it, trades
 * the code for a token, reads `/me` (the user's Clever id and district) and
 * signs in the staff account with that Clever id — or, the first time, the
 * one with the user's email among the staff of the Curbside district
 * connected to that Clever district (the Clever id is then kept on it).
 * Only Clever teachers, staff and district admins sign in (a student or a
 * guardian whose email is a staff member's never does), and an account
 * already linked to one Clever id is never handed to another.
 *
 * A sign-in started at Clever (the Clever Portal, an Instant Login link)
 * comes with a code and no state. That code signs no one in (it could be an
 * attacker's own, planted in a link: login CSRF); the browser is sent to
 * `GET /api/auth/login` instead, which starts a sign-in with a state bound to
 * it, and Clever, where the user is signed in already, sends it straight back
 * with a code and that state. The state must be ours, unused and unexpired.
 */
export const SSO_STATE_COOKIE = 'curbside_sso_state';
const STATE_TTL_MS = 10 * 60_000;
const CALLBACK_PATH = '/api/auth/clever/callback';

/** Why a sign-in did not happen: the login screen says it (`/login?sso=…`). */
export type SsoFailure = 'unavailable' | 'expired' | 'denied' | 'unknown' | 'inactive' | 'failed';

export class SsoRefused extends Error {
  constructor(readonly reason: SsoFailure) {
    super(`single sign-on refused: ${reason}`);
  }
}

/** The callback's address on the site (`origin`: the site's own, `siteOrigin` of the request). */
const callbackUrl = (origin: string) => `${origin}${CALLBACK_PATH}`;

/** Starts a sign-in: where to send the browser, and the state its cookie must carry back. */
export const startSso = async (origin: string): Promise<{ location: string; state: string }> => {
  const sso = cleverSso();
  if (!sso) throw new SsoRefused('unavailable');
  const state = randomBytes(32).toString('base64url');
  await ssoStates.create(db, state, STATE_TTL_MS);
  const authorize = new URL('/oauth/authorize', sso.oauthUrl);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: sso.clientId,
    redirect_uri: callbackUrl(origin),
    state,
  }).toString();
  return { location: authorize.toString(), state };
};

const fetchJson = async (url: string, init: RequestInit): Promise<Record<string, unknown>> => {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(8000) });
  if (!response.ok) {
    log('warn', 'clever answered an error', { path: new URL(url).pathname, status: response.status });
    throw new SsoRefused(response.status === 400 || response.status === 401 ? 'expired' : 'failed');
  }
  return (await response.json()) as Record<string, unknown>;
};

interface CleverIdentity {
  cleverId: string;
  districtCleverId: string;
  email: string | null;
  /** A Clever teacher, staff member or district admin: the only ones who sign in to the staff screens. */
  staff: boolean;
}

/** The Clever roles (`/users/{id}` `roles`) that may sign in as staff. */
const STAFF_ROLES = ['teacher', 'staff', 'district_admin'] as const;

/** The code, traded for a token, then who the token is for: `/me`, and `/users/{id}` for the email. */
const identify = async (code: string, redirectUri: string): Promise<CleverIdentity> => {
  const sso = cleverSso();
  if (!sso) throw new SsoRefused('unavailable');
  const secret = await cleverSsoSecret();
  const tokens = await fetchJson(new URL('/oauth/tokens', sso.oauthUrl).toString(), {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${sso.clientId}:${secret}`).toString('base64')}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ code, grant_type: 'authorization_code', redirect_uri: redirectUri }),
  });
  const token = tokens.access_token;
  if (typeof token !== 'string') throw new SsoRefused('failed');
  const bearer = { headers: { authorization: `Bearer ${token}` } };
  const me = (await fetchJson(new URL('/v3.0/me', sso.apiUrl).toString(), bearer)).data as
    | { id?: unknown; district?: unknown }
    | undefined;
  if (typeof me?.id !== 'string' || typeof me.district !== 'string') throw new SsoRefused('failed');
  const user = (
    await fetchJson(new URL(`/v3.0/users/${encodeURIComponent(me.id)}`, sso.apiUrl).toString(), bearer)
  ).data as { email?: unknown; roles?: unknown } | undefined;
  const roles =
    typeof user?.roles === 'object' && user.roles !== null ? (user.roles as Record<string, unknown>) : {};
  return {
    cleverId: me.id,
    districtCleverId: me.district,
    email: typeof user?.email === 'string' ? user.email.trim().toLowerCase() : null,
    staff: STAFF_ROLES.some((role) => typeof roles[role] === 'object' && roles[role] !== null),
  };
};

/**
 * The staff account of a Clever teacher, staff member or district admin: by
 * Clever id, else by email in the connected district (then linked), unless
 * that account is already linked to another Clever id.
 */
const accountOf = async (identity: CleverIdentity): Promise<User> => {
  if (!identity.staff) throw new SsoRefused('unknown');
  const linked = await cleverLinks.userOf(db, identity.cleverId);
  if (linked !== undefined) {
    const user = await users.get(db, linked);
    if (user) return user;
  }
  const districtId = await cleverLinks.districtOf(db, identity.districtCleverId);
  if (districtId === undefined || identity.email === null) throw new SsoRefused('unknown');
  const staff = (await users.listByDistrict(db, districtId)).filter(
    (member) => member.role !== 'parent' && member.email?.trim().toLowerCase() === identity.email,
  );
  // Two accounts with one email: which one is meant is not ours to guess.
  const [match] = staff;
  if (!match || staff.length > 1) throw new SsoRefused('unknown');
  // Linked to another Clever user already: an email shared in Clever is no claim on it.
  if (match.cleverId && match.cleverId !== identity.cleverId) throw new SsoRefused('unknown');
  if (!match.cleverId) await cleverLinks.linkUser(db, match.id, identity.cleverId);
  return match;
};

/**
 * The callback: the browser back from Clever with a code and our state.
 * Answers the sign-in, `startOver` for a code without a state (the browser
 * goes to `GET /api/auth/login` for one), or throws `SsoRefused` with the reason to show.
 */
export const finishSso = async (
  origin: string,
  query: { code?: string; state?: string; error?: string },
  cookies: Record<string, string | undefined>,
): Promise<SignedIn | 'startOver'> => {
  if (!cleverSso()) throw new SsoRefused('unavailable');
  if (query.error || !query.code) throw new SsoRefused('denied');
  if (query.state === undefined) return 'startOver';
  const bound = cookies[SSO_STATE_COOKIE] === query.state;
  if (!bound || !(await ssoStates.take(db, query.state))) throw new SsoRefused('expired');
  const identity = await identify(query.code, callbackUrl(origin));
  const user = await accountOf(identity);
  if (!user.active) throw new SsoRefused('inactive');
  return signInVouched(user, cookies[DEVICE_COOKIE]);
};

/** The login screen, told why a single sign-on did not happen. */
export const ssoFailurePage = (reason: SsoFailure) => `/login?sso=${reason}`;
