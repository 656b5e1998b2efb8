import {
  AUTH_SESSION_TTL_MS,
  isStaffRole,
  LOGIN_THROTTLE,
  type ParentRegisterInput,
  TooManyRequestsError,
  UnauthorizedError,
  type User,
} from '@curbside/domain';
import { authSessions, connections, sessionIdOf, throttle, users } from '@curbside/store';
import { newSessionToken } from '../lib/auth';
import { connectionsDb, db } from '../lib/context';
import { live } from '../lib/live';
import { DUMMY_HASH_PROMISE, hashPassword, verifyPassword } from '../lib/passwords';

export interface SignedIn {
  user: User;
  token: string;
  maxAgeSeconds: number;
}

const startSession = async (user: User): Promise<SignedIn> => {
  const token = newSessionToken(user.id);
  await authSessions.put(db, token, {
    userId: user.id,
    expiresAt: new Date(Date.now() + AUTH_SESSION_TTL_MS).toISOString(),
  });
  return { user, token, maxAgeSeconds: AUTH_SESSION_TTL_MS / 1000 };
};

const INVALID = 'Invalid username or password';

/**
 * Signs a staff member or a parent in. After repeated failures for a username
 * or from an address, further attempts answer 429 until the window resets.
 */
export const signIn = async (
  { username, password }: { username: string; password: string },
  kind: 'staff' | 'parent',
  address: string,
): Promise<SignedIn> => {
  const scopes = [
    { scope: `login#user#${username.trim().toLowerCase()}`, limit: LOGIN_THROTTLE.perUsername },
    { scope: `login#ip#${address}`, limit: LOGIN_THROTTLE.perAddress },
  ];
  const attempt = await throttle.reserve(db, scopes, LOGIN_THROTTLE.windowMs);
  if (!attempt.allowed) {
    const minutes = Math.max(1, Math.ceil((attempt.resetAt - Date.now()) / 60_000));
    throw new TooManyRequestsError(
      `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    );
  }

  const found = await users.findCredentials(db, username);
  const valid = await verifyPassword(password, found?.passwordHash ?? (await DUMMY_HASH_PROMISE));
  const rightKind =
    found && (kind === 'parent' ? found.user.role === 'parent' : isStaffRole(found.user.role));
  // A failed attempt stays counted; a sign-in gives its count back and clears the username's.
  if (!found || !valid || !rightKind || !found.user.active) throw new UnauthorizedError(INVALID);
  await Promise.all([attempt.release(), throttle.clear(db, scopes[0]?.scope ?? '', LOGIN_THROTTLE.windowMs)]);
  return startSession(found.user);
};

/**
 * Ends a user's sign-ins: THE one way to sign a user out. Revokes their
 * sign-in sessions first (so a screen that reconnects is anonymous), then
 * closes the live connections opened with those sessions through the
 * management API (DELETE), so nothing more reaches their screens.
 * - `{ token }`: that one session and its connections: logout on one tablet
 *   leaves the user's other tablets signed in.
 * - no token: every session and connection of the user: deactivation and a
 *   password change call it so.
 * Answers how many connections were closed.
 */
export const endSignIns = async (userId: number, { token }: { token?: string } = {}): Promise<number> => {
  let ended: ReadonlySet<string> | 'all';
  if (token) {
    await authSessions.revoke(db, token);
    ended = new Set([sessionIdOf(token)]);
  } else {
    await authSessions.revokeAllOf(db, userId);
    ended = 'all';
  }
  const open = await connections.ofUser(connectionsDb(), userId);
  const closing = open
    .filter(
      (connection) => ended === 'all' || (connection.sessionId !== null && ended.has(connection.sessionId)),
    )
    .map((connection) => connection.connectionId);
  if (closing.length > 0) await live().disconnect(closing);
  return closing.length;
};

/** Logout: ends the session of the token (and its live connections); a token of no session does nothing. */
export const signOut = async (token: string | undefined) => {
  if (!token) return;
  const session = await authSessions.get(db, token);
  if (session) await endSignIns(session.userId, { token });
  else await authSessions.revoke(db, token);
};

/** Registers a parent account and signs it in. A taken username is a 409. */
export const registerParent = async (input: Required<ParentRegisterInput>): Promise<SignedIn> => {
  const user = await users.create(db, {
    name: input.name,
    username: input.username,
    email: input.email,
    phone: input.phone,
    role: 'parent',
    active: true,
    schoolId: null,
    districtId: null,
    passwordHash: await hashPassword(input.password),
  });
  return startSession(user);
};

export const requireUser = (user: User | null): User => {
  if (!user) throw new UnauthorizedError('Not signed in');
  return user;
};
