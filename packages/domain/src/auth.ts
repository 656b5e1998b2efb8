import { z } from 'zod';

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

export const PARENT_PASSWORD_MIN = 6;

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
  password: z
    .string({ message: 'Password must be at least 6 characters' })
    .min(PARENT_PASSWORD_MIN, 'Password must be at least 6 characters')
    .max(200, 'Password is too long'),
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

/** Sign-in throttling: failures allowed per window, per username and per address. */
export const LOGIN_THROTTLE = {
  windowMs: 15 * 60 * 1000,
  perUsername: 5,
  perAddress: 30,
} as const;

/** Staff and parent sessions last 12 hours. */
export const AUTH_SESSION_TTL_MS = 12 * 60 * 60 * 1000;
