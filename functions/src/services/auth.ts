import {
  AUTH_SESSION_TTL_MS,
  isStaffRole,
  LOGIN_THROTTLE,
  type ParentRegisterInput,
  TooManyRequestsError,
  UnauthorizedError,
  type User,
} from '@curbside/domain';
import { authSessions, throttle, users } from '@curbside/store';
import { newSessionToken } from '../lib/auth';
import { db } from '../lib/context';
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

export const signOut = async (token: string | undefined) => {
  if (token) await authSessions.revoke(db, token);
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
