import * as z from 'zod';
import {
  isCommonPassword,
  PARENT_PASSWORD_MAX,
  PARENT_PASSWORD_MIN,
  PASSWORD_RESET_INVALID,
  PASSWORD_TOO_COMMON,
  PASSWORD_TOO_LONG,
  PASSWORD_TOO_SHORT,
} from './passwords';

/** Sign-in and registration rules (specification §5). */
export const loginSchema = z.object({
  username: z
    .string({ message: 'Username is required' })
    .trim()
    .min(1, 'Username is required')
    .max(100, 'Username is too long'),
  password: z
    .string({ message: 'Password is required' })
    .min(1, 'Password is required')
    .max(200, 'Password is too long'),
});
export type LoginInput = z.input<typeof loginSchema>;

/** A parent's new password, as every form and route that sets one checks it. */
export const parentPasswordSchema = z
  .string({ message: PASSWORD_TOO_SHORT })
  .min(PARENT_PASSWORD_MIN, PASSWORD_TOO_SHORT)
  .max(PARENT_PASSWORD_MAX, PASSWORD_TOO_LONG)
  .refine((password) => !isCommonPassword(password), PASSWORD_TOO_COMMON);

export const parentRegisterSchema = z.object({
  name: z
    .string({ message: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(100, 'Name is too long'),
  username: z
    .string({ message: 'Username is required' })
    .trim()
    .min(1, 'Username is required')
    .max(100, 'Username is too long'),
  password: parentPasswordSchema,
  email: z
    .string({ message: 'Valid email is required' })
    .trim()
    .max(254, 'Email is too long')
    .email('Valid email is required'),
  phone: z
    .string({ message: 'Phone number is required' })
    .trim()
    .min(1, 'Phone number is required')
    .max(40, 'Phone number is too long'),
  role: z.literal('parent', { message: 'Role must be parent' }).default('parent'),
});
export type ParentRegisterInput = z.input<typeof parentRegisterSchema>;

/**
 * Sign-in throttling, in 15-minute windows, built so that an attacker cannot
 * turn it against the user:
 * - `perAccountAndPlace` wrong passwords for one account from one address, or
 *   from one device the account has signed in from before (a known device);
 * - `perAccount` wrong passwords for one account from every unknown device
 *   together: slows a guesser with many addresses (80 guesses an hour), but
 *   the user's usual device keeps its own allowance, so it is never locked out;
 * - `perAddress` failed sign-ins from one address over all accounts (unknown
 *   devices only): credential stuffing.
 */
export const LOGIN_THROTTLE = {
  windowMs: 15 * 60 * 1000,
  perAccountAndPlace: 5,
  perAccount: 20,
  perAddress: 30,
} as const;

/** Parent registration: attempts per address per hour (a school event's shared Wi-Fi included). */
export const REGISTRATION_THROTTLE = {
  windowMs: 60 * 60 * 1000,
  perAddress: 20,
} as const;

/** Staff and parent sessions last 12 hours. */
export const AUTH_SESSION_TTL_MS = 12 * 60 * 60 * 1000;

/**
 * A one-time password (an admin made it, or an import's account got its
 * first one) works for 7 days, and only to choose one's own: until then the
 * account may read itself, set its password and sign out, nothing else.
 */
export const ONE_TIME_PASSWORD_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const MUST_CHANGE_PASSWORD =
  'Set your own password first: a one-time password only lets you choose a new one.';
export const ONE_TIME_PASSWORD_EXPIRED = 'This one-time password has expired. Ask your school for a new one.';

/** Whether an account's one-time password no longer works (past its time, or made before it had one). */
export const oneTimePasswordExpired = (
  user: { mustChangePassword?: boolean; oneTimePasswordExpiresAt?: string },
  now = Date.now(),
) =>
  user.mustChangePassword === true &&
  !(user.oneTimePasswordExpiresAt !== undefined && Date.parse(user.oneTimePasswordExpiresAt) > now);

/** A password-reset link works for an hour, once (issue 50). */
export const PASSWORD_RESET_TTL_MS = 60 * 60 * 1000;
export const PASSWORD_RESET_TOKEN_BYTES = 32;

/**
 * Reset requests: per address (one person asking for many accounts) and per
 * email address (nobody floods a parent's inbox), in hour windows. Past
 * either, the answer is the same and no message goes out.
 */
export const PASSWORD_RESET_THROTTLE = {
  windowMs: 60 * 60 * 1000,
  perAddress: 10,
  perEmail: 3,
} as const;

/** `POST /api/auth/parent/forgot-password`. */
export const forgotPasswordSchema = z.object({
  email: z
    .string({ message: 'Valid email is required' })
    .trim()
    .max(254, 'Email is too long')
    .email('Valid email is required'),
});
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;

/** `POST /api/auth/parent/reset-password`: the link's token and the new password. */
export const resetPasswordSchema = z.object({
  token: z
    .string({ message: PASSWORD_RESET_INVALID })
    .max(43, PASSWORD_RESET_INVALID)
    .regex(/^[A-Za-z0-9_-]{43}$/, PASSWORD_RESET_INVALID),
  password: parentPasswordSchema,
});
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;
