import { type FunctionPlan, routeKeyOf, routeList, schedules, WS_ROUTES } from '@curbside/api';

export { WS_ROUTES };

/**
 * Every handler module, derived from the route table and the schedule list:
 * the laptop runtime loads each (`http/{route name}`, `ws/{name}`,
 * `scheduled/{name}`), and the functions build bundles them into their
 * function's entry (`functionEntry`). A route has its handler at
 * `src/http/{name}.ts`.
 */
export interface HandlerModule {
  /** Runtime name: `http-health`, `ws-connect`, `scheduled-end-sessions`. */
  id: string;
  /** Source path relative to `functions/`. */
  source: string;
}

export const handlerModules = (): HandlerModule[] => [
  ...routeList.map((r) => ({ id: `http-${r.name}`, source: `src/http/${r.name}.ts` })),
  ...Object.values(WS_ROUTES).map((name) => ({ id: `ws-${name}`, source: `src/ws/${name}.ts` })),
  ...schedules.map((s) => ({ id: `scheduled-${s.name}`, source: `src/scheduled/${s.name}.ts` })),
];

/**
 * The source of a function's entry: it imports the handlers of the
 * function's routes and dispatches by route key (`src/lib/dispatch.ts`).
 * Paths are relative to `functions/`.
 */
export const functionEntry = (plan: FunctionPlan): string => {
  const cases: Array<[key: string, source: string]> =
    plan.kind === 'http'
      ? plan.routes.map((route) => [routeKeyOf(route), `./src/http/${route.name}.ts`])
      : plan.kind === 'ws'
        ? Object.entries(WS_ROUTES).map(([key, name]) => [key, `./src/ws/${name}.ts`])
        : plan.schedules.map((schedule) => [schedule.name, `./src/scheduled/${schedule.name}.ts`]);
  const dispatch = { http: 'dispatchHttp', ws: 'dispatchWs', scheduled: 'dispatchScheduled' }[plan.kind];
  return [
    `import { ${dispatch} } from './src/lib/dispatch.ts';`,
    ...cases.map(([, source], i) => `import { handler as h${i} } from ${JSON.stringify(source)};`),
    `export const handler = ${dispatch}({`,
    ...cases.map(([key], i) => `  ${JSON.stringify(key)}: h${i},`),
    '});',
    '',
  ].join('\n');
};
