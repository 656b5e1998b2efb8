import type { RouteObject } from 'react-router';
import { askWhoIsSignedIn } from './start';

/**
 * The staff's way in (ADR 0026): `/` (a signed-in user goes on to their home screen, anyone
 * else sees the sign-in) and `/login`. Its own audience: someone not signed in yet loads
 * neither the staff shell nor the car-line screens' code, and opens no live connection.
 */
export const signInRoutes: RouteObject = {
  id: 'sign-in',
  loader: askWhoIsSignedIn,
  children: [
    {
      index: true,
      lazy: { Component: async () => (await import('../features/home/home.page')).HomePage },
    },
    {
      path: 'login',
      lazy: { Component: async () => (await import('../features/auth/login.page')).LoginPage },
    },
  ],
};
