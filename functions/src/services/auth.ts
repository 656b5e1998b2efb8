import { randomBytes } from 'node:crypto';
import {
  AUTH_SESSION_TTL_MS,
  ConflictError,
  LOGIN_THROTTLE,
  ONE_TIME_PASSWORD_EXPIRED,
  oneTimePasswordExpired,
  type ParentRegisterInput,
  REGISTRATION_THROTTLE,
  TooManyRequestsError,
  UnauthorizedError,
  type User,
  ValidationError,
} from '@curbside/domain';
import {
  type AccountKind,
  authSessions,
  connections,
  knownDevices,
  type NewUser,
  sessionIdOf,
  type ThrottleScope,
  throttle,
  users,
} from '@curbside/store';
import { newSessionToken } from '../lib/auth';
import { connectionsDb, db } from '../lib/context';
import { live } from '../lib/live';
import { dummyHash, hashPassword, needsRehash, verifyPassword } from '../lib/passwords';

export interface SignedIn {
  user: User;
  token: string;
  maxAgeSeconds: number;
  /** The device's token (a long-lived cookie): this device is now known to the account. */
  deviceToken: string;
}

const startSession = async (
  user: User,
  account: string,
  deviceToken: string | undefined,
): Promise<SignedIn> => {
  const token = newSessionToken(user.id);
  const device = deviceToken ?? randomBytes(32).toString('base64url');
  await Promise.all([
    authSessions.put(db, token, {
      userId: user.id,
      expiresAt: new Date(Date.now() + AUTH_SESSION_TTL_MS).toISOString(),
    }),
    knownDevices.remember(db, device, account),
  ]);
  return { user, token, maxAgeSeconds: AUTH_SESSION_TTL_MS / 1000, deviceToken: device };
};

const INVALID = 'Invalid username or password';

const tooMany = (resetAt: number) => {
  const minutes = Math.max(1, Math.ceil((resetAt - Date.now()) / 60_000));
  return new TooManyRequestsError(
    `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  );
};

/** The account a sign-in is for, as the throttles and known devices name it. */
const accountOf = (kind: AccountKind, username: string) => `${kind}#${username.trim().toLowerCase()}`;

/**
 * What a sign-in attempt is counted against (`LOGIN_THROTTLE`): from a device
 * the account knows, only that device's own allowance; otherwise the account
 * at this address, the account over all unknown devices, and the address.
 */
const signInScopes = (account: string, address: string, knownDevice: string | undefined): ThrottleScope[] =>
  knownDevice
    ? [
        {
          scope: `login#device#${knownDevices.idOf(knownDevice)}#${account}`,
          limit: LOGIN_THROTTLE.perAccountAndPlace,
        },
      ]
    : [
        { scope: `login#place#${account}#${address}`, limit: LOGIN_THROTTLE.perAccountAndPlace },
        { scope: `login#account#${account}`, limit: LOGIN_THROTTLE.perAccount },
        { scope: `login#ip#${address}`, limit: LOGIN_THROTTLE.perAddress },
      ];

/**
 * Signs a staff member or a parent in (each at their own door: usernames of
 * the two kinds are apart). Wrong passwords are limited as `LOGIN_THROTTLE`
 * says; a sign-in remembers the device, upgrades a password hash made with
 * weaker parameters, and clears the counts of its account at that place.
 */
export const signIn = async (
  { username, password }: { username: string; password: string },
  kind: AccountKind,
  address: string,
  deviceToken?: string,
): Promise<SignedIn> => {
  const account = accountOf(kind, username);
  const known = deviceToken !== undefined && (await knownDevices.knows(db, deviceToken, account));
  const scopes = signInScopes(account, address, known ? deviceToken : undefined);
  const attempt = await throttle.reserve(db, scopes, LOGIN_THROTTLE.windowMs);
  if (!attempt.allowed) throw tooMany(attempt.resetAt);

  const found = await users.findCredentials(db, username, kind);
  const valid = await verifyPassword(password, found?.passwordHash ?? (await dummyHash()));
  // A failed attempt stays counted; a sign-in gives its counts back and clears its place's.
  if (!found || !valid || !found.user.active) throw new UnauthorizedError(INVALID);
  // A one-time password works for `ONE_TIME_PASSWORD_TTL_MS` (still counted as a failed attempt after).
  if (oneTimePasswordExpired(found.user)) throw new UnauthorizedError(ONE_TIME_PASSWORD_EXPIRED);
  await Promise.all([attempt.release(), throttle.clear(db, scopes[0]?.scope ?? '', LOGIN_THROTTLE.windowMs)]);
  if (needsRehash(found.passwordHash)) {
    await users.replacePasswordHash(db, found.user.id, found.passwordHash, await hashPassword(password));
  }
  return startSession(found.user, account, deviceToken);
};

/**
 * A staff user an identity provider vouched for (Clever single sign-on):
 * signed in as a password would, unless deactivated.
 */
export const signInVouched = (user: User, deviceToken?: string): Promise<SignedIn> => {
  if (!user.active || user.role === 'parent') throw new UnauthorizedError(INVALID);
  return startSession(user, accountOf('staff', user.username), deviceToken);
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

/**
 * A signed-in user replaces their password (the one-time one an admin gave
 * them, or their own). The current password is checked as a sign-in is (and
 * counted against the same limits); then every sign-in of the user ends (a
 * password change signs out the other tablets, and closes their live
 * connections) and this one starts again with a new session.
 */
export const changeOwnPassword = async (
  user: User,
  input: { currentPassword: string; newPassword: string },
  address: string,
  deviceToken?: string,
): Promise<SignedIn> => {
  const kind: AccountKind = user.role === 'parent' ? 'parent' : 'staff';
  try {
    await signIn({ username: user.username, password: input.currentPassword }, kind, address, deviceToken);
  } catch (error) {
    if (error instanceof UnauthorizedError) {
      const message =
        error.message === ONE_TIME_PASSWORD_EXPIRED ? error.message : 'Current password is incorrect';
      throw new ValidationError(message, [{ path: 'currentPassword', message }]);
    }
    throw error;
  }
  await users.setOwnPassword(db, user.id, await hashPassword(input.newPassword));
  await endSignIns(user.id);
  const { mustChangePassword: _, oneTimePasswordExpiresAt: __, ...changed } = user;
  return startSession(changed, accountOf(kind, user.username), deviceToken);
};

/** Logout: ends the session of the token (and its live connections); a token of no session does nothing. */
export const signOut = async (token: string | undefined) => {
  if (!token) return;
  const session = await authSessions.get(db, token);
  if (session) await endSignIns(session.userId, { token });
  else await authSessions.revoke(db, token);
};

/**
 * Registers a parent account and signs it in. Attempts are limited per
 * address (`REGISTRATION_THROTTLE`); a username another parent has is a 409
 * (staff usernames are apart and never conflict, so this reveals none).
 */
export const registerParent = async (
  input: Required<ParentRegisterInput>,
  address: string,
  deviceToken?: string,
): Promise<SignedIn> => {
  const attempt = await throttle.reserve(
    db,
    [{ scope: registrations(address), limit: REGISTRATION_THROTTLE.perAddress }],
    REGISTRATION_THROTTLE.windowMs,
  );
  if (!attempt.allowed) {
    throw new TooManyRequestsError('Too many accounts were registered from here. Please try again later.');
  }
  return registerWith(input, deviceToken, (account) => users.create(db, account));
};

/** The registration throttle's count of an address (`REGISTRATION_THROTTLE`). */
const registrations = (address: string) => `register#ip#${address}`;

/** A new parent account's fields (an invite's may have no email address: the school knew none). */
type NewParentInput = Omit<Required<ParentRegisterInput>, 'email'> & { email: string | null };

/**
 * Makes a parent account with `create` and signs it in. A username another
 * parent has is told before the password is hashed (`create` still guards a
 * race: staff usernames are apart and never conflict, so this reveals none).
 */
const registerWith = async (
  input: NewParentInput,
  deviceToken: string | undefined,
  create: (account: NewUser) => Promise<User>,
): Promise<SignedIn> => {
  if (await users.findCredentials(db, input.username, 'parent')) {
    throw new ConflictError(`Username ${input.username} is already taken`);
  }
  const user = await create({
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
  return startSession(user, accountOf('parent', user.username), deviceToken);
};

/**
 * Registers a parent through a valid, unused invite (issue 50 item 15):
 * bounded by the school's own invites, so not counted against the address
 * (back-to-school night: every family on the school's Wi-Fi). `create` makes
 * the account in one transaction with the invite's use (issue 49).
 */
export const registerInvitedParent = (
  input: NewParentInput,
  deviceToken: string | undefined,
  create: (account: NewUser) => Promise<User>,
): Promise<SignedIn> => registerWith(input, deviceToken, create);

/**
 * An accept that would have made an account with an invite that does not
 * work: counted against the address as a registration is (an invalid invite
 * is no bound).
 */
export const countRefusedRegistration = (address: string) =>
  throttle.count(db, registrations(address), REGISTRATION_THROTTLE.windowMs);

export const requireUser = (user: User | null): User => {
  if (!user) throw new UnauthorizedError('Not signed in');
  return user;
};
