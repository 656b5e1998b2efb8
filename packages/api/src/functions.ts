import { AREAS, type Area, type RouteDefinition } from './route';
import { routeList } from './routes';
import { type ScheduleDefinition, schedules } from './schedules';

/**
 * The Lambda functions, derived from the route table: one per area that has
 * routes (each dispatching its routes by route key), one for the WebSocket
 * API's routes and one for the schedules. The CDK stack deploys them, the
 * functions build bundles them, the laptop runtime runs every invocation with
 * the same access. A new route joins its area's function: one more HTTP API
 * route, nothing else. (docs/adr/0004-functions-by-area.md)
 */

/** The WebSocket API's routes; the handler of each is `functions/src/ws/{name}.ts`. */
export const WS_ROUTES = { $connect: 'connect', $disconnect: 'disconnect', $default: 'default' } as const;
export type WsRouteKey = keyof typeof WS_ROUTES;

/** DynamoDB actions as IAM names them (a transaction needs the action of each of its items). */
export type TableAction =
  | 'GetItem'
  | 'BatchGetItem'
  | 'Query'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'BatchWriteItem'
  | 'ConditionCheckItem';

export interface FunctionAccess {
  /** Actions on the data table; `Query` includes its indexes. Never `Scan`. */
  data: readonly TableAction[];
  /** Actions on the live-connection table; none: the function is not told the table exists. */
  connections: readonly TableAction[];
  /** May post to and close WebSocket connections (`execute-api:ManageConnections`). */
  publishes: boolean;
  /** May send email through Amazon SES (`ses:SendEmail`, from the `MAIL_FROM` identity). */
  sendsEmail?: boolean;
  /** Lambda memory in MB (CPU grows with it). */
  memoryMb: number;
  /** Lambda timeout in seconds (the HTTP API gives up after 30 s anyway). */
  timeoutSeconds: number;
}

/** What a function that publishes does to the connection table: list a channel, drop a gone connection. */
const PUBLISHER: readonly TableAction[] = ['Query', 'GetItem', 'BatchWriteItem'];
/**
 * A publisher that may also unlink a parent from a child: each open page of
 * the parent's stops hearing of the child (its school row updated, ADR 0027).
 */
const UNLINKER: readonly TableAction[] = [...PUBLISHER, 'UpdateItem'];
/**
 * A publisher that numbers a session's events: the number's item is the live
 * table's (ADR 0027 "(h54zi)"), raised with UpdateItem, made in a new
 * session's transaction (an Update there too).
 */
const NUMBERER: readonly TableAction[] = [...PUBLISHER, 'UpdateItem'];
const HTTP = { memoryMb: 512, timeoutSeconds: 10 } as const;

/**
 * What each function may do: the union of what its routes do, no more (the
 * lists were taken from the actions the whole test suite makes, per
 * function). Every HTTP route reads the session and its user (GetItem) to
 * authorize. The laptop runtime enforces these grants on every invocation,
 * so a route that needs more fails its tests until it is granted here.
 */
export const FUNCTION_ACCESS: Readonly<Record<Area | 'ws' | 'scheduled', FunctionAccess>> = {
  /**
   * Sign-in (throttles, known devices, sessions, password upgrades),
   * registration, sign-out (ends the session's live connections), health.
   * scrypt at N=2^17 needs 128 MiB per hash and a whole core for about half a
   * second: 1,769 MB is one full vCPU.
   */
  auth: {
    // A password change ends the user's other sign-ins: their sessions (an index Query, batch deletes).
    // Every signed-in request reads its sign-in and user together (BatchGetItem).
    data: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query', 'BatchWriteItem'],
    connections: PUBLISHER,
    publishes: true,
    memoryMb: 1769,
    timeoutSeconds: 10,
  },
  /** Pickup sessions, queue, batches, alerts: every change goes to the staff screens. */
  carLine: {
    data: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'],
    connections: NUMBERER,
    publishes: true,
    ...HTTP,
  },
  /**
   * Classrooms, the teacher's students, releases (told to staff and parents), pickup codes;
   * releases by way home and programs' check-ins (issue 52: a check-in taken back is a DeleteItem).
   */
  teacher: {
    data: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
    connections: NUMBERER,
    publishes: true,
    ...HTTP,
  },
  /**
   * Schools, districts, users; the school's rosters (students, teachers,
   * parents, vehicles, classrooms) and their CSV import, which writes
   * thousands of items in batches and hashes one-time passwords (scrypt at
   * N=2^17, a whole core each): a full vCPU, and the HTTP API's 29 s.
   */
  admin: {
    data: [
      'GetItem',
      'BatchGetItem',
      'Query',
      'PutItem',
      'UpdateItem',
      'DeleteItem',
      'BatchWriteItem',
      'ConditionCheckItem',
    ],
    // Deactivating a user or giving a new password ends their sign-ins and closes their live connections;
    // switching a school's (or district's) mode tells the school's staff screens; a parent unlinked from a
    // child (or the child erased) stops being told of the child on their open pages.
    connections: UNLINKER,
    publishes: true,
    // Emailing parent invites (issue 29) queues a mail run and starts the mail sender (below), which alone sends.
    memoryMb: 1769,
    timeoutSeconds: 29,
  },
  /**
   * Invite links and linking a child: code lookups and uses (throttled), the
   * parent's links; the children's pickup status (their session's queue, marks and pickups).
   */
  parent: {
    // Removing an adult from a child's authorized pickups (DeleteItem).
    data: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
    // A change of a child's authorized adults goes to the school's staff screens (issue 50); the
    // children's status reads the session's latest pickups there, in the poll's BatchGetItem (h54zi).
    connections: [...PUBLISHER, 'BatchGetItem'],
    publishes: true,
    ...HTTP,
  },
  /**
   * The school's bus links (made on first use, rotated in one transaction,
   * closing the pages opened with the old ones), the fleet and the positions.
   */
  bus: {
    data: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'DeleteItem'],
    connections: PUBLISHER,
    publishes: true,
    ...HTTP,
  },
  /**
   * The student-information (Clever) import page: reads Clever, connects a
   * district or school to Clever, starts import jobs (and their function).
   */
  sis: {
    data: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem'],
    connections: [],
    publishes: false,
    ...HTTP,
  },
  /**
   * `$connect` reads the session or the bus link and keeps the connection;
   * `$disconnect` drops it; `$default` answers pong and relays a driver's
   * positions (kept with a TTL; one conditional write per second lets the
   * fleet's latest fan out to the school's maps). A staff connection's
   * `subscribe` checks its classrooms (one BatchGetItem) and swaps its
   * channel rows (its connection row updated, member rows put and deleted, in
   * one transaction).
   */
  ws: {
    data: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
    connections: [...PUBLISHER, 'UpdateItem', 'PutItem', 'DeleteItem'],
    publishes: true,
    ...HTTP,
  },
  /** Ends overdue pickup sessions and tells the staff screens; starts the nightly Clever sync's jobs. */
  scheduled: {
    data: ['Query', 'GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    connections: PUBLISHER,
    publishes: true,
    memoryMb: 512,
    timeoutSeconds: 60,
  },
};

interface PlanBase {
  /** Lambda id and bundle folder: `http-carLine`, `ws`, `scheduled`. */
  id: string;
  access: FunctionAccess;
}
export interface HttpFunctionPlan extends PlanBase {
  kind: 'http';
  area: Area;
  routes: readonly RouteDefinition[];
}
export interface WsFunctionPlan extends PlanBase {
  kind: 'ws';
}
export interface ScheduledFunctionPlan extends PlanBase {
  kind: 'scheduled';
  schedules: readonly ScheduleDefinition[];
}
export type FunctionPlan = HttpFunctionPlan | WsFunctionPlan | ScheduledFunctionPlan;

/** Every function, from the route table (areas without routes have none). */
export const functionPlan = (routes: readonly RouteDefinition[] = routeList): FunctionPlan[] => [
  ...AREAS.filter((area) => routes.some((route) => route.area === area)).map(
    (area): HttpFunctionPlan => ({
      id: `http-${area}`,
      kind: 'http',
      area,
      routes: routes.filter((route) => route.area === area),
      access: FUNCTION_ACCESS[area],
    }),
  ),
  { id: 'ws', kind: 'ws', access: FUNCTION_ACCESS.ws },
  ...(schedules.length > 0
    ? [{ id: 'scheduled', kind: 'scheduled', schedules, access: FUNCTION_ACCESS.scheduled } as const]
    : []),
];

/**
 * The function a handler module runs in (`http/login` → the auth function,
 * `ws/connect` → ws, `scheduled/end-sessions` → scheduled).
 */
export const functionOfModule = (module: string): FunctionPlan | undefined => {
  const [kind, name] = module.split('/');
  return functionPlan().find((plan) =>
    plan.kind === 'http'
      ? kind === 'http' && plan.routes.some((route) => route.name === name)
      : plan.kind === kind,
  );
};

/**
 * The one function that serves no route: it rotates the origin secret
 * CloudFront sends to the APIs (`functions/src/rotation/origin-secret.ts`).
 */
export const ORIGIN_SECRET_ROTATION = {
  id: 'rotate-origin-secret',
  source: 'src/rotation/origin-secret.ts',
  /** Asynchronous invocations that fail are tried twice more (Lambda's default), then dead-lettered. */
  retryAttempts: 2,
} as const;

/**
 * The function that runs import jobs (`functions/src/jobs/import.ts`),
 * invoked asynchronously by the import routes, the nightly sync and itself
 * (a job continues in a new invocation before the 15-minute limit). It
 * writes rosters in batches; it ends the sign-ins of the people it deactivates.
 */
export const IMPORT_JOBS = {
  id: 'import-jobs',
  module: 'jobs/import',
  source: 'src/jobs/import.ts',
  /** A failed run marks its job failed (to be resumed): Lambda must not run it again on its own. */
  retryAttempts: 0,
  access: {
    data: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'],
    // A parent's children changed by the import: their open pages stop hearing of the ones unlinked.
    connections: UNLINKER,
    publishes: true,
    memoryMb: 1024,
    timeoutSeconds: 900,
  } satisfies FunctionAccess,
} as const;

/**
 * The function that sends emailed parent invites (`functions/src/jobs/mail.ts`),
 * invoked asynchronously by the mail route and by itself (a run continues in a
 * new invocation before the 15-minute limit), one invocation at a time, paced
 * under SES's sending rate. The only function that may call `ses:SendEmail`.
 * It claims, settles and counts a run's messages (an update transaction each).
 */
export const MAIL_SENDER = {
  id: 'mail-sender',
  module: 'jobs/mail',
  source: 'src/jobs/mail.ts',
  /** A failed invocation is run again (twice, Lambda's default): claimed messages are never sent twice. */
  retryAttempts: 2,
  access: {
    data: ['GetItem', 'Query', 'UpdateItem'],
    connections: [],
    publishes: false,
    sendsEmail: true,
    memoryMb: 512,
    timeoutSeconds: 900,
  } satisfies FunctionAccess,
} as const;

/** The functions no route serves that the others (and they themselves) invoke asynchronously. */
export const ASYNC_FUNCTIONS = [IMPORT_JOBS, MAIL_SENDER] as const;

/** The asynchronous function a handler module is (`jobs/import`, `jobs/mail`), if it is one. */
export const asyncFunctionOfModule = (module: string): (typeof ASYNC_FUNCTIONS)[number] | undefined =>
  ASYNC_FUNCTIONS.find((fn) => fn.module === module);

/** Every bundle folder the functions build writes (`functions/dist/{id}`). */
export const bundleIds = (): string[] => [
  ...functionPlan().map((plan) => plan.id),
  ORIGIN_SECRET_ROTATION.id,
  ...ASYNC_FUNCTIONS.map((fn) => fn.id),
];
