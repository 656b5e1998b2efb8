import { returns, route } from './route';

/**
 * The route table: the single source of truth for every HTTP call. Handlers,
 * the CDK stack, the laptop gateway and the web client all read it.
 */
export const routes = {
  health: route({
    name: 'health',
    method: 'GET',
    path: '/api/health',
    request: {},
    access: 'public',
    response: returns<{ ok: true }>(),
  }),
} as const;

export type Routes = typeof routes;
export type RouteName = keyof Routes;

export const routeList = Object.values(routes);
