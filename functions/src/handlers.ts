import { routeList, schedules } from '@curbside/api';

/**
 * Every Lambda handler module, derived from the route table and the schedule
 * list: the CDK stack deploys each, the build bundles each, the laptop
 * runtime loads each. A route has its handler at `src/http/{name}.ts`.
 */
export interface HandlerModule {
  /** Lambda name suffix and bundle folder, e.g. `http-health`. */
  id: string;
  /** Source path relative to `functions/`. */
  source: string;
}

export const WS_ROUTES = { $connect: 'connect', $disconnect: 'disconnect', $default: 'default' } as const;

export const handlerModules = (): HandlerModule[] => [
  ...routeList.map((r) => ({ id: `http-${r.name}`, source: `src/http/${r.name}.ts` })),
  ...Object.values(WS_ROUTES).map((name) => ({ id: `ws-${name}`, source: `src/ws/${name}.ts` })),
  ...schedules.map((s) => ({ id: `scheduled-${s.name}`, source: `src/scheduled/${s.name}.ts` })),
];
