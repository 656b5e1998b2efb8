import {
  type District,
  loginSchema,
  type PickupSession,
  parentRegisterSchema,
  type School,
  sessionInputSchema,
  type User,
} from '@curbside/domain';
import { z } from 'zod';
import { returns, route } from './route';

const id = z.coerce.number({ message: 'Invalid id' }).int('Invalid id').positive('Invalid id');
const idParams = z.object({ id });
const ok = returns<{ ok: true }>();

/**
 * The route table: the single source of truth for every HTTP call. Handlers
 * (`functions/src/http/{name}.ts`), the CDK stack, the laptop gateway and the
 * web client all read it.
 */
export const routes = {
  health: route({
    name: 'health',
    method: 'GET',
    path: '/api/health',
    request: {},
    access: 'public',
    response: ok,
  }),

  // Staff sign-in
  login: route({
    name: 'login',
    method: 'POST',
    path: '/api/login',
    request: { body: loginSchema },
    access: 'public',
    response: returns<User>(),
  }),
  logout: route({
    name: 'logout',
    method: 'POST',
    path: '/api/logout',
    request: {},
    access: 'public',
    response: ok,
  }),
  me: route({
    name: 'me',
    method: 'GET',
    path: '/api/me',
    request: {},
    access: 'signedIn',
    response: returns<User>(),
  }),

  // Parent sign-in and single sign-on
  parentLogin: route({
    name: 'parentLogin',
    method: 'POST',
    path: '/api/auth/parent/login',
    request: { body: loginSchema },
    access: 'public',
    response: returns<User>(),
  }),
  parentRegister: route({
    name: 'parentRegister',
    method: 'POST',
    path: '/api/auth/parent/register',
    request: { body: parentRegisterSchema },
    access: 'public',
    response: returns<User>(),
  }),
  authLogout: route({
    name: 'authLogout',
    method: 'POST',
    path: '/api/auth/logout',
    request: {},
    access: 'public',
    response: ok,
  }),
  ssoLogin: route({
    name: 'ssoLogin',
    method: 'GET',
    path: '/api/auth/login',
    request: {},
    access: 'public',
    response: returns<never>(),
  }),

  // Pickup sessions: open to every staff role of the school
  activeSession: route({
    name: 'activeSession',
    method: 'GET',
    path: '/api/sessions/active',
    request: {},
    access: { minRole: 'front_queue_wrangler' },
    response: returns<PickupSession | null>(),
  }),
  listSessions: route({
    name: 'listSessions',
    method: 'GET',
    path: '/api/sessions',
    request: {},
    access: { minRole: 'front_queue_wrangler' },
    response: returns<PickupSession[]>(),
  }),
  createSession: route({
    name: 'createSession',
    method: 'POST',
    path: '/api/sessions',
    request: { body: sessionInputSchema },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<PickupSession>(),
  }),
  endSession: route({
    name: 'endSession',
    method: 'PUT',
    path: '/api/sessions/{id}/end',
    request: { params: idParams },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<PickupSession>(),
  }),

  // Schools, districts and users: reads
  getSchool: route({
    name: 'getSchool',
    method: 'GET',
    path: '/api/schools/{id}',
    request: { params: idParams },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<School>(),
  }),
  getDistrict: route({
    name: 'getDistrict',
    method: 'GET',
    path: '/api/districts/{id}',
    request: { params: idParams },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<District>(),
  }),
  listUsers: route({
    name: 'listUsers',
    method: 'GET',
    path: '/api/users',
    request: {},
    access: { minRole: 'front_queue_wrangler' },
    response: returns<User[]>(),
  }),
} as const;

export type Routes = typeof routes;
export type RouteName = keyof Routes;

export const routeList = Object.values(routes);
