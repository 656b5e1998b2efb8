import {
  forgotPasswordSchema,
  loginSchema,
  parentRegisterSchema,
  passwordChangeSchema,
  resetPasswordSchema,
  type User,
} from '@curbside/domain';
import * as z from 'zod';
import { areaRoutes, returns, route } from '../route';
import { ok } from './shared';

/** Sign-in, sign-out, the current user, single sign-on and health. */
export const authRoutes = areaRoutes('auth', {
  health: route({
    method: 'GET',
    path: '/api/health',
    request: {},
    access: 'public',
    response: returns<{ ok: true; demo: boolean }>(),
  }),
  // Staff sign-in
  login: route({
    method: 'POST',
    path: '/api/login',
    request: { body: loginSchema },
    access: 'public',
    response: returns<User>(),
  }),
  logout: route({
    method: 'POST',
    path: '/api/logout',
    request: {},
    access: 'public',
    response: ok,
  }),
  changePassword: route({
    method: 'POST',
    path: '/api/auth/password',
    request: { body: passwordChangeSchema },
    access: 'signedIn',
    sandboxExempt: true,
    beforeOwnPassword: true,
    response: returns<User>(),
  }),
  me: route({
    method: 'GET',
    path: '/api/me',
    request: {},
    access: 'signedIn',
    beforeOwnPassword: true,
    response: returns<User>(),
  }),
  // Parent sign-in and single sign-on
  parentLogin: route({
    method: 'POST',
    path: '/api/auth/parent/login',
    request: { body: loginSchema },
    access: 'public',
    response: returns<User>(),
  }),
  parentRegister: route({
    method: 'POST',
    path: '/api/auth/parent/register',
    request: { body: parentRegisterSchema },
    access: 'public',
    response: returns<User>(),
  }),
  // "Forgot password?" (issue 50): an emailed one-time link, then the new password.
  forgotParentPassword: route({
    method: 'POST',
    path: '/api/auth/parent/forgot-password',
    request: { body: forgotPasswordSchema },
    access: 'public',
    response: returns<{ message: string }>(),
  }),
  resetParentPassword: route({
    method: 'POST',
    path: '/api/auth/parent/reset-password',
    request: { body: resetPasswordSchema },
    access: 'public',
    response: returns<{ message: string }>(),
  }),
  authLogout: route({
    method: 'POST',
    path: '/api/auth/logout',
    request: {},
    access: 'public',
    response: ok,
  }),
  ssoLogin: route({
    method: 'GET',
    path: '/api/auth/login',
    request: {},
    access: 'public',
    response: returns<never>(),
  }),
  /** Clever sends the browser back here with a code (and our state, unless the sign-in began at Clever). */
  ssoCallback: route({
    method: 'GET',
    path: '/api/auth/clever/callback',
    request: {
      query: z.object({
        code: z.string().max(512).optional(),
        state: z.string().max(128).optional(),
        error: z.string().max(200).optional(),
        scope: z.string().max(500).optional(),
      }),
    },
    access: 'public',
    response: returns<never>(),
  }),
});
