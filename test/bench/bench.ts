/**
 * The dismissal-rush benchmark, callable from the CLI (`run.ts`) and from the
 * smoke test. It seeds its own school, runs Curbside in a child process
 * (meter on), drives the rush over real HTTP and WebSocket connections from
 * this process with staff screens that behave as the web client does,
 * measures the floor on the same machine, and answers every figure as one
 * report object. The phases live in their own modules: `setup.ts`,
 * `probes.ts`, `rush-run.ts`, `floor.ts`; this file runs them in order and
 * assembles the report.
 */
import { createDb, type MeterCounters, type MeterSnapshot } from '@curbside/store';
import { PARENT_STATUS_POLL_MS } from '../../web/src/features/parent/parent.queries';
import { AWS_PRICES } from './aws-prices';
import { type BusFigures, type BusFleet, busPlanFor, seedBuses, startBusFleet } from './buses';
import { type CostModel, costModel } from './cost';
import { type CpuFigures, type CpuSample, cpuSampler } from './cpu';
import { type BroadcastFloor, bareBroadcast, barePutLoop, type PutFloor } from './floor';
import type { RouteFigures } from './http';
import {
  allFigures,
  diff,
  figuresOf,
  operationsOf,
  perCall,
  publishedAll,
  publishedTo,
  sumOf,
} from './meter-window';
import { type AddToBatchProbe, addToBatchProbe, type QueueReadProbe, queueReadProbe, warmUp } from './probes';
import type { RushCounts } from './rush';
import { closeWebScreens, openWebScreens, type RushRun, runRush } from './rush-run';
import type { SchoolPlan } from './school';
import type { MemoryFigures } from './server-process';
import { type BenchContext, startBench } from './setup';
import { round, type Summary, sleep, summarize } from './stats';
import { READ_REASONS, type ReadReason, type ScreenMode, type WebScreen } from './web-screen';

export type { QueueReadProbe } from './probes';

export interface BenchOptions {
  /** Multiplies the load: 1 by default, 0.1 a quick smoke run, 5 a district-size rush. */
  scale: number;
  /** Length of the arrival window; default 180 s × scale, between 15 and 300 s (a 30-minute dismissal compressed about 10×). */
  durationSec?: number;
  /**
   * How the staff screens follow the rush: `patch` (the web client: events
   * patch their lists; the default, followed by a shorter baseline rush) or
   * `refetch-all` (the baseline alone: every list read again per event).
   */
  screens?: ScreenMode;
  /** Reuse a running DynamoDB Local (the test suite's) instead of starting one in memory. */
  endpoint?: string;
  tableName?: string;
  /** The server's LOG_LEVEL: silent by default. */
  logLevel?: 'silent' | 'error' | 'info';
  /** Write a V8 CPU profile of the server process into this directory. */
  cpuProfileDir?: string;
  /** How many times each floor runs (default 2; the ratios use the lower run). */
  floorRuns?: number;
  /** Progress lines (stderr in the CLI). */
  log?: (line: string) => void;
}

export interface RouteRow extends RouteFigures {
  route: string;
  /** From the server's meter: per call averages. */
  readUnitsPerCall: number;
  writeUnitsPerCall: number;
  dynamoCallsPerCall: number;
  messagesPerCall: number;
  handlerMsPerCall: number;
  /** DynamoDB operations per call: how many, and their units. */
  operations: Record<string, { callsPerCall: number; unitsPerCall: number }>;
}

export interface HandlerRow {
  handler: string;
  invocations: number;
  readUnits: number;
  writeUnits: number;
  messages: number;
  handlerMsPerCall: number;
}

/** What the staff screens read during one rush, and per event. */
export interface ScreenReads {
  mode: ScreenMode;
  cars: number;
  arrivalWindowSec: number;
  seconds: number;
  /** Events published to the school's staff in the window. */
  events: number;
  /** Read units of every screen read in the window (every list route; the staff themselves read nothing). */
  readUnits: number;
  readUnitsPerEvent: number;
  calls: number;
  /** Screen reads by why they happened: a new card, a poll, a missed event, an event (baseline). */
  byReason: Record<ReadReason, number>;
  byRoute: Record<string, { calls: number; readUnits: number }>;
  gaps: number;
  failedReads: number;
  /** Projected to a real 30-minute dismissal of the main rush's events: reads per event, polls per minute, loads once. */
  perDismissal: number;
}

/** The parents on the dashboard during the rush: what reached them, what they read, and what it costs. */
export interface ParentFigures {
  phones: number;
  /** Messages about their own child, all phones, by type. */
  messages: number;
  byType: Record<string, number>;
  messagesPerPhone: number;
  /** Messages that named another child or said more than the child's id and status. */
  leaks: number;
  deliveryMs: Summary;
  /** Status reads: after messages, and the 30 s polls. */
  reads: number;
  polls: number;
  readUnits: number;
  /** AWS prices of the parents' share of the rush: their messages and their status calls' read units. */
  messageDollars: number;
  readDollars: number;
}

const parentFigures = (
  ctx: BenchContext,
  statusCalls: MeterCounters | undefined,
  rush: { from: number; to: number },
): ParentFigures => {
  const byType: Record<string, number> = {};
  for (const phone of ctx.parents) {
    for (const [type, n] of phone.received) byType[type] = (byType[type] ?? 0) + n;
  }
  const messages = Object.values(byType).reduce((sum, n) => sum + n, 0);
  const readUnits = statusCalls?.['ddb.readUnits'] ?? 0;
  return {
    phones: ctx.parents.length,
    messages,
    byType,
    messagesPerPhone: ctx.parents.length > 0 ? round(messages / ctx.parents.length, 1) : 0,
    leaks: ctx.parents.reduce((sum, phone) => sum + phone.leaks, 0),
    // The rush's messages, as for the staff screens (not the naive relay's or the baseline's load after it).
    deliveryMs: summarize(ctx.parentLatency.between(rush.from, rush.to)),
    reads: ctx.parents.reduce((sum, phone) => sum + phone.reads, 0),
    polls: ctx.parents.reduce((sum, phone) => sum + phone.polls, 0),
    readUnits: round(readUnits, 1),
    messageDollars: messages * AWS_PRICES.webSocketApi.perMessage,
    readDollars: readUnits * AWS_PRICES.dynamoDb.perReadUnit,
  };
};

export interface BenchReport {
  startedAt: string;
  /** The buses of the rush: drivers at 1 Hz, map viewers, the admin's map screens. */
  buses: BusFigures;
  scale: number;
  machine: { cpus: number; node: string; platform: string; loadAverage: number[] };
  plan: SchoolPlan & { screens: { staff: number; anonymous: number }; arrivalWindowSec: number };
  seed: { ms: number; writes: number; students: number; cars: number; staff: number; classrooms: number };
  setup: { ms: number; logins: number; loginLatencyMs: Summary };
  rush: {
    mode: ScreenMode;
    seconds: number;
    timedOut: boolean;
    counts: RushCounts;
    unexpectedAnswers: string[];
    networkErrors: number;
    serverErrors: number;
    leftInQueue: number;
    requests: number;
    requestsPerSecond: number;
  };
  api: { overall: Summary; routes: RouteRow[] };
  handlers: HandlerRow[];
  live: {
    deliveryMs: Summary;
    publishedToStaff: number;
    staffScreens: number;
    expectedPerScreen: number;
    receivedMin: number;
    receivedMax: number;
    lost: number;
    extra: number;
    unstamped: number;
    anonymousScreens: number;
    anonymousEvents: number;
    leakedQueueEvents: number;
    messagesSent: number;
    messagesPerSecond: number;
    averageMessageBytes: number;
    eventsPerSecond: number;
    byType: Record<string, number>;
  };
  parents: ParentFigures;
  screens: {
    staff: Record<'front' | 'back' | 'teacher', number>;
    /** The staff screens' first reads of their lists when they open (once per session). */
    loads: { calls: number; readUnits: number };
    rush: ScreenReads;
    /** The same screens reading every list again per event, in a shorter rush of its own (same arrival rate). */
    baseline: ScreenReads | null;
    /** Screen read units per event, patching ÷ baseline. */
    ratio: number | null;
  };
  dynamo: {
    readUnits: number;
    writeUnits: number;
    estimatedWriteUnits: number;
    /** All write units of POST /api/queue per car, the event's sequence number included. */
    writeUnitsPerCarAdded: number;
    /** The queue's own write units per car (the entry and its place in the waiting line). */
    queueWriteUnitsPerCarAdded: number;
    /** The record's write units per car added (its event, and the transaction it makes the add). */
    recordWriteUnitsPerCarAdded: number;
    /** The live events' sequence numbers: write units per event. */
    sequenceWriteUnitsPerEvent: number;
    queueReads: { early: QueueReadProbe; late: QueueReadProbe };
    addToBatch: { at50: AddToBatchProbe; at300: AddToBatchProbe };
  };
  memory: { server: MemoryFigures; generatorPeakRssMb: number };
  /** CPU used during the rush, per process. */
  cpu: CpuFigures;
  /** The rush in windows of time. */
  timeline: RushWindow[];
  floor: {
    /** Each floor ran twice; the ratios use the lower of the two. */
    put: PutFloor[];
    broadcast: BroadcastFloor[];
    putP50Ms: number;
    broadcastP99Ms: number;
    apiP50OverPutP50: number;
    fanoutP99OverBroadcastP99: number;
  };
  cost: CostModel;
}

/** One window of the rush: latency, CPU per process, and queue reads against queue length and pickups. */
export interface RushWindow {
  fromSec: number;
  toSec: number;
  apiCalls: number;
  apiP50Ms: number;
  apiP99Ms: number;
  deliveryP99Ms: number;
  serverCores: number;
  dynamoLocalCores: number | null;
  otherCores: number | null;
  /** GET /api/queue calls in the window (the screens' reads) and their read units per call. */
  polls: number;
  readUnitsPerCall: number;
  averageActiveEntries: number;
  completedPickupsAtEnd: number;
}

const DISMISSAL_MINUTES = 30;
/** How long the naive bus relay runs for the comparison, after the rush. */
const NAIVE_BUS_SECONDS = 10;
const DROPOFF_MINUTES = 30;
const SESSION_LENGTH_MS = 2 * 60 * 60 * 1000;
/** The routes of the lists the staff screens read. */
const SCREEN_ROUTES = [
  'listQueue',
  'activeBatches',
  'listBatches',
  'batchVehicles',
  'teacherStudents',
  'readyStudents',
  'listAlerts',
] as const;
const SCREEN_LABELS = SCREEN_ROUTES.map((route) => `http/${route}`);
/** The baseline rush: this share of the cars over this share of the window (the same arrival rate). */
const BASELINE_SHARE = 1 / 8;
/**
 * The baseline's screens saturate a laptop: its rush stops this long after
 * its arrival window, finished or not (what it left is cleared; its reads per
 * event are measured over what it did).
 */
const BASELINE_OVERTIME_MS = 20_000;

// ── Phases ──────────────────────────────────────────────────────────────────

const startSession = async (
  ctx: BenchContext,
): Promise<{ id: number; counters: MeterSnapshot[string] | undefined }> => {
  ctx.recorder.phase = 'setup';
  const before = await ctx.meterNow();
  const active = await ctx.front[0]!.call<{ id: number } | null>(
    'activeSession',
    'GET',
    '/api/sessions/active',
  );
  // Ending a session takes back queue staff or above (issue 13).
  if (active.body) {
    const ended = await ctx.back[0]!.call('endSession', 'PUT', `/api/sessions/${active.body.id}/end`);
    if (ended.status !== 200) throw new Error(`Could not end the session: ${ended.status}`);
  }
  const now = Date.now();
  const created = await ctx.front[0]!.call<{ id: number }>('createSession', 'POST', '/api/sessions', {
    name: 'Afternoon Pickup',
    type: 'afternoon_pickup',
    startTime: new Date(now).toISOString(),
    endTime: new Date(now + SESSION_LENGTH_MS).toISOString(),
    notes: 'Dismissal-rush benchmark',
  });
  if (created.status !== 201 && created.status !== 200) {
    throw new Error(`Could not start the session: ${created.status} ${JSON.stringify(created.body)}`);
  }
  return { id: created.body.id, counters: diff(await ctx.meterNow(), before)['http/createSession'] };
};

/** Clears what a rush that ran out of time left in the queue; answers how many entries were left. */
const clearLeftovers = async (ctx: BenchContext, sessionId: number) => {
  ctx.recorder.phase = 'probe';
  const lead = ctx.front[0]!;
  const remaining = await lead.call<Array<{ id: string }>>(
    'listQueue',
    'GET',
    `/api/queue?sessionId=${sessionId}`,
  );
  const left = Array.isArray(remaining.body) ? remaining.body : [];
  for (const entry of left) {
    await lead.call('removeFromQueue', 'DELETE', `/api/queue/${encodeURIComponent(entry.id)}`);
  }
  return Array.isArray(remaining.body) ? left.length : -1;
};

/** Waits until every staff screen has every staff event published since they connected (or 10 s). */
const settleDelivery = async (ctx: BenchContext) => {
  const channel = `school#${ctx.school.schoolId}#staff`;
  const expectedNow = async () => publishedTo(diff(await ctx.meterNow(), ctx.connected), channel);
  let expected = await expectedNow();
  const deadline = performance.now() + 10_000;
  while (ctx.staff.some(({ screen }) => screen.events < expected) && performance.now() < deadline) {
    await sleep(50);
    expected = await expectedNow();
  }
  await sleep(300); // stragglers or duplicates, and anything an anonymous screen should not get
  return expected;
};

/** What the screens read in a rush window, and per event. */
const screenReadsOf = (
  run: RushRun,
  window: MeterSnapshot,
  channel: string,
  projection: { events: number; loadReadUnits: number; pollsPerMinute: Record<string, number> },
): ScreenReads => {
  const events = publishedTo(window, channel);
  const byRoute: Record<string, { calls: number; readUnits: number }> = {};
  for (const route of SCREEN_ROUTES) {
    const counters = window[`http/${route}`];
    if (counters)
      byRoute[route] = {
        calls: counters['lambda.invocations'] ?? 0,
        readUnits: counters['ddb.readUnits'] ?? 0,
      };
  }
  const byReason = Object.fromEntries(READ_REASONS.map((reason) => [reason, 0])) as Record<
    ReadReason,
    number
  >;
  const pollCalls: Record<string, number> = {};
  for (const screen of run.screens) {
    for (const [route, reasons] of screen.reads) {
      for (const reason of READ_REASONS) byReason[reason] += reasons[reason];
      pollCalls[route] = (pollCalls[route] ?? 0) + reasons.poll;
    }
  }
  byReason.load = 0; // loads happen before the window (reported apart)
  const readUnits = Object.values(byRoute).reduce((sum, route) => sum + route.readUnits, 0);
  const calls = Object.values(byRoute).reduce((sum, route) => sum + route.calls, 0);
  const unitsPerCall = (route: string) =>
    byRoute[route]?.calls ? (byRoute[route]?.readUnits ?? 0) / (byRoute[route]?.calls ?? 1) : 0;
  const pollUnits = Object.entries(pollCalls).reduce((sum, [route, n]) => sum + n * unitsPerCall(route), 0);
  const pollUnitsPerMinute = Object.entries(projection.pollsPerMinute).reduce(
    (sum, [route, n]) => sum + n * unitsPerCall(route),
    0,
  );
  const eventUnits = Math.max(0, readUnits - pollUnits);
  return {
    mode: run.mode,
    cars: run.cars,
    arrivalWindowSec: run.arrivalWindowSec,
    seconds: round(run.seconds, 1),
    events,
    readUnits: round(readUnits, 1),
    readUnitsPerEvent: events > 0 ? readUnits / events : 0,
    calls,
    byReason,
    byRoute,
    gaps: run.screens.reduce((sum, screen) => sum + screen.gaps, 0),
    failedReads: run.screens.reduce((sum, screen) => sum + screen.failedReads, 0),
    perDismissal:
      (events > 0 ? (eventUnits / events) * projection.events : 0) +
      pollUnitsPerMinute * DISMISSAL_MINUTES +
      projection.loadReadUnits,
  };
};

const measureFloors = async (
  ctx: BenchContext,
  rush: { seconds: number; window: MeterSnapshot; itemBytes: number },
) => {
  const staffClients = ctx.staff.length;
  const requests = Object.values(ctx.recorder.routes('rush')).reduce((sum, route) => sum + route.calls, 0);
  const requestsPerSecond = requests / rush.seconds;
  const rushEvents = publishedAll(rush.window);
  const rushMessages = sumOf(rush.window, 'live.messages');
  const messageBytes = rushMessages > 0 ? Math.round(sumOf(rush.window, 'live.bytes') / rushMessages) : 200;
  const eventsPerSecond = rushEvents / rush.seconds;
  // Twice each (by default), back to back: a floor is the best the machine does, and one burst of
  // other work on a shared machine should not pass for it. Ratios use the lower run.
  const put: PutFloor[] = [];
  const broadcast: BroadcastFloor[] = [];
  const runs = Math.max(1, ctx.options.floorRuns ?? 2);
  for (let run = 1; run <= runs; run++) {
    ctx.log(
      `Floor ${run}/${runs}: bare PutItem loop (${staffClients} clients, ${requestsPerSecond.toFixed(1)}/s), ` +
        `bare ws broadcast (${staffClients} clients, ${eventsPerSecond.toFixed(1)} messages/s)…`,
    );
    put.push(
      await barePutLoop({
        endpoint: ctx.endpoint,
        tableName: ctx.tableName,
        clients: staffClients,
        perSecond: Math.max(1, requestsPerSecond),
        durationMs: Math.min(8_000, Math.max(3_000, rush.seconds * 50)),
        itemBytes: rush.itemBytes,
      }),
    );
    broadcast.push(
      await bareBroadcast(ctx.server, {
        clients: staffClients,
        messages: Math.round(Math.max(50, Math.min(rushEvents, eventsPerSecond * 5))),
        perSecond: Math.max(5, eventsPerSecond),
        payloadBytes: messageBytes,
      }),
    );
  }
  return {
    put,
    broadcast,
    requests,
    requestsPerSecond,
    rushEvents,
    rushMessages,
    messageBytes,
    eventsPerSecond,
  };
};

/** Closes every screen (`$disconnect` runs for each) and answers the meter of the disconnects. */
const closeScreens = async (ctx: BenchContext) => {
  const screens = [...ctx.staff.map(({ screen }) => screen), ...ctx.anonymous];
  const before = await ctx.meterNow();
  await Promise.all(screens.map((screen) => screen.close()));
  const deadline = performance.now() + 5000;
  let disconnects = diff(await ctx.meterNow(), before)['ws/disconnect'];
  while ((disconnects?.['lambda.invocations'] ?? 0) < screens.length && performance.now() < deadline) {
    await sleep(100);
    disconnects = diff(await ctx.meterNow(), before)['ws/disconnect'];
  }
  return disconnects;
};

const timelineOf = (ctx: BenchContext, run: RushRun, cpu: ReturnType<typeof cpuSampler>): RushWindow[] =>
  run.samples.slice(1).map((sample, i) => {
    const previous = run.samples[i]!;
    const reads = diff(sample.snapshot, previous.snapshot)['http/listQueue'];
    const api = summarize(ctx.recorder.between('rush', previous.wall, sample.wall));
    const delivery = summarize(ctx.latency.between(previous.wall, sample.wall));
    const cores = cpu.figures(previous.cpu as CpuSample, sample.cpu as CpuSample);
    const started = run.samples[0]!.at;
    return {
      fromSec: round((previous.at - started) / 1000, 1),
      toSec: round((sample.at - started) / 1000, 1),
      apiCalls: api.count,
      apiP50Ms: round(api.p50, 1),
      apiP99Ms: round(api.p99, 1),
      deliveryP99Ms: round(delivery.p99, 1),
      serverCores: round(cores.server.cores, 2),
      dynamoLocalCores: cores.dynamoLocal ? round(cores.dynamoLocal.cores, 2) : null,
      otherCores: cores.others ? round(cores.others.cores, 2) : null,
      polls: reads?.['lambda.invocations'] ?? 0,
      readUnitsPerCall: round(perCall(reads, 'ddb.readUnits'), 2),
      averageActiveEntries: round((previous.activeEntries + sample.activeEntries) / 2, 1),
      completedPickupsAtEnd: sample.completed,
    };
  });

const routeRowsOf = (ctx: BenchContext, window: MeterSnapshot): RouteRow[] =>
  Object.entries(ctx.recorder.routes('rush'))
    .map(([route, figures]) => {
      const counters = window[`http/${route}`];
      return {
        route,
        ...figures,
        readUnitsPerCall: perCall(counters, 'ddb.readUnits'),
        writeUnitsPerCall: perCall(counters, 'ddb.writeUnits'),
        dynamoCallsPerCall: perCall(counters, 'ddb.calls'),
        messagesPerCall: perCall(counters, 'live.messages'),
        handlerMsPerCall: perCall(counters, 'lambda.ms'),
        operations: operationsOf(counters),
      };
    })
    .sort((a, b) => b.calls - a.calls);

// ── The run ─────────────────────────────────────────────────────────────────

export const runBenchmark = async (options: BenchOptions): Promise<BenchReport> => {
  const scale = options.scale;
  if (!(scale > 0 && scale <= 20)) throw new Error(`--scale must be above 0 and at most 20, not ${scale}`);
  const startedAt = new Date().toISOString();
  const { cpus, loadavg } = await import('node:os');
  const loadAverage = loadavg().map((value) => round(value, 2));
  const mode: ScreenMode = options.screens ?? 'patch';
  let generatorPeakRss = process.memoryUsage.rss();
  const rssSampler = setInterval(() => {
    generatorPeakRss = Math.max(generatorPeakRss, process.memoryUsage.rss());
  }, 250);
  const ctx = await startBench(options);
  const { log, school } = ctx;
  const channel = `school#${school.schoolId}#staff`;
  let openScreens: WebScreen[] = [];
  let fleet: BusFleet | undefined;
  try {
    const busPlan = busPlanFor(scale);
    log(`Starting ${busPlan.buses} buses at 1 Hz and ${busPlan.viewers} map viewers…`);
    const tokens = await seedBuses(
      createDb({ table: ctx.tableName, endpoint: ctx.endpoint, meter: false }),
      school.schoolId,
      busPlan.buses,
    );
    fleet = await startBusFleet({
      url: ctx.server.url,
      ...tokens,
      staffCookie: ctx.front[0]?.cookie as string,
      ...busPlan,
    });
    await fleet.warm();
    const buses = fleet;
    // ── The session, the read probe before any pickup, the screens, a warm-up ──
    const session = await startSession(ctx);
    log('Probing queue reads before the rush…');
    const early = await queueReadProbe(ctx, session.id, 0);
    log(
      `Opening ${ctx.staff.length} staff screens (${mode === 'patch' ? 'patching' : 'reading every list per event'})…`,
    );
    const opened = await openWebScreens(ctx, session.id, mode);
    openScreens = opened.screens;
    log('Warming up every rush route…');
    await warmUp(ctx, session.id);

    // ── The rush ──────────────────────────────────────────────────────────
    await ctx.server.ask({ type: 'memoryBaseline' });
    const cpu = cpuSampler(() => ctx.server.ask({ type: 'cpu' }));
    let run = undefined as unknown as RushRun;
    const busRush = await buses.window('coalesced', ctx.meterNow, async () => {
      run = await runRush(ctx, {
        sessionId: session.id,
        mode,
        screens: openScreens,
        cars: school.cars,
        arrivalWindowSec: ctx.arrivalWindowSec,
        phase: 'rush',
        cpu,
      });
    });
    const cpuFigures = cpu.figures(run.samples[0]?.cpu as CpuSample, run.samples.at(-1)?.cpu as CpuSample);
    const serverMemory = await ctx.server.ask({ type: 'memory' });
    log(`Rush done in ${run.seconds.toFixed(1)} s.`);
    await settleDelivery(ctx);
    const rushWall = { from: run.startedWall, to: Date.now() };
    const deliveryMs = summarize(ctx.latency.between(rushWall.from, rushWall.to));
    const busDelivery = summarize(buses.delivery.between(run.startedWall, Date.now()));
    log(`The naive bus relay (every position to every viewer) for ${NAIVE_BUS_SECONDS} s…`);
    await ctx.server.ask({ type: 'busRelay', mode: 'naive' });
    const busNaive = await buses.window('naive', ctx.meterNow, () => sleep(NAIVE_BUS_SECONDS * 1000));
    await ctx.server.ask({ type: 'busRelay', mode: 'coalesced' });
    const busFigures: BusFigures = {
      ...busPlan,
      deliveryMs: busDelivery,
      rush: busRush,
      naive: busNaive,
      leaks: buses.leaks(),
      dismissal: {
        coalesced: buses.dismissal(busRush, DISMISSAL_MINUTES),
        naive: buses.dismissal(busNaive, DISMISSAL_MINUTES),
      },
      dismissalMinutes: DISMISSAL_MINUTES,
    };
    buses.stop();
    fleet = undefined;
    closeWebScreens(ctx, openScreens);
    openScreens = [];
    const leftInQueue = await clearLeftovers(ctx, session.id);
    const completed =
      run.rush.counts.completedInBatches + run.rush.counts.walkUpCompleted + run.rush.counts.dismissed;
    log('Probing queue reads after it…');
    const late = await queueReadProbe(ctx, session.id, completed);
    const rushWindow = diff(run.after, run.before);
    const loadReadUnits = SCREEN_LABELS.reduce(
      (sum, label) => sum + (opened.loads[label]?.['ddb.readUnits'] ?? 0),
      0,
    );
    const loadCalls = SCREEN_LABELS.reduce(
      (sum, label) => sum + (opened.loads[label]?.['lambda.invocations'] ?? 0),
      0,
    );
    const kinds = { front: ctx.front.length, back: ctx.back.length, teacher: ctx.teachers.length };
    const staffScreens = ctx.staff.length;
    const pollsPerMinute = { listQueue: kinds.teacher * 12, listAlerts: staffScreens * 2 };
    const mainEvents = publishedTo(rushWindow, channel);
    const screenReads = screenReadsOf(run, rushWindow, channel, {
      events: mainEvents,
      loadReadUnits,
      pollsPerMinute,
    });

    // ── The baseline: the same screens reading every list again per event, in a shorter rush ──
    let baseline: ScreenReads | null = null;
    if (mode === 'patch') {
      const second = await startSession(ctx);
      const cars = school.cars.slice(0, Math.max(8, Math.round(school.cars.length * BASELINE_SHARE)));
      const windowSec = Math.max(5, Math.round(ctx.arrivalWindowSec * BASELINE_SHARE));
      log(`Baseline: opening the staff screens again, reading every list per event…`);
      const reopened = await openWebScreens(ctx, second.id, 'refetch-all');
      openScreens = reopened.screens;
      const base = await runRush(ctx, {
        sessionId: second.id,
        mode: 'refetch-all',
        screens: openScreens,
        cars,
        arrivalWindowSec: windowSec,
        phase: 'baseline',
        overtimeMs: BASELINE_OVERTIME_MS,
      });
      await settleDelivery(ctx);
      closeWebScreens(ctx, openScreens);
      openScreens = [];
      await clearLeftovers(ctx, second.id);
      baseline = screenReadsOf(base, diff(base.after, base.before), channel, {
        events: mainEvents,
        loadReadUnits,
        pollsPerMinute,
      });
    }

    // ── Add-to-batch with 50 and with 300 cars waiting ───────────────────
    const third = await startSession(ctx);
    log('Probing add-to-batch with 50 and 300 cars waiting…');
    const addToBatch = await addToBatchProbe(ctx, third.id);

    // ── Delivery to every screen, over everything published ──────────────
    const expected = await settleDelivery(ctx);

    // ── Floors ────────────────────────────────────────────────────────────
    const addRoute = ctx.recorder.routes('rush').addToQueue;
    const itemBytes = addRoute && addRoute.calls > 0 ? Math.round(addRoute.bytes / addRoute.calls) : 700;
    const floors = await measureFloors(ctx, { seconds: run.seconds, window: rushWindow, itemBytes });
    const putP50 = Math.min(...floors.put.map((floor) => floor.latencyMs.p50));
    const broadcastP99 = Math.min(...floors.broadcast.map((floor) => floor.latencyMs.p99));

    // ── Close the screens: `$disconnect` runs for each ───────────────────
    const disconnects = await closeScreens(ctx);

    // ── The report ────────────────────────────────────────────────────────
    const routes = routeRowsOf(ctx, rushWindow);
    const handlers: HandlerRow[] = Object.entries(rushWindow)
      .filter(([label]) => !label.startsWith('http/'))
      .map(([handler, counters]) => ({
        handler,
        invocations: counters['lambda.invocations'] ?? 0,
        readUnits: counters['ddb.readUnits'] ?? 0,
        writeUnits: counters['ddb.writeUnits'] ?? 0,
        messages: counters['live.messages'] ?? 0,
        handlerMsPerCall: perCall(counters, 'lambda.ms'),
      }));
    const byType: Record<string, number> = {};
    for (const { screen } of ctx.staff) {
      for (const [type, n] of screen.byType) byType[type] = (byType[type] ?? 0) + n;
    }
    const received = ctx.staff.map(({ screen }) => screen.events);
    const overall = ctx.recorder.overall('rush');
    const adds = rushWindow['http/addToQueue'];
    const addCalls = adds?.['lambda.invocations'] ?? 0;
    const addWrites = adds?.['ddb.writeUnits'] ?? 0;
    const addSequenceWrites = adds?.['ddb.sequenceWriteUnits'] ?? 0;
    const addRecordWrites = adds?.['ddb.recordWriteUnits'] ?? 0;
    const allScreens = [
      ...ctx.staff.map(({ screen }) => screen),
      ...ctx.anonymous,
      ...ctx.parents.map(({ screen }) => screen),
    ];
    const pingsSent = allScreens.reduce((sum, screen) => sum + screen.pingsSent, 0);
    const rushRoutes = ctx.recorder.routes('rush');
    // `$default` also ran the drivers' positions (priced apart, over a whole dismissal): the pings alone here.
    const rushFigures = allFigures(rushWindow);
    const wsDefault = rushFigures['ws/default'];
    if (wsDefault && wsDefault.invocations > 0) {
      const pings = Math.max(0, wsDefault.invocations - busRush.driverMessages);
      rushFigures['ws/default'] = {
        invocations: pings,
        billedMs: wsDefault.billedMs * (pings / wsDefault.invocations),
        readUnits: 0,
        writeUnits: 0,
        billedMessages: pings,
      };
    }
    const cost = costModel({
      rush: rushFigures,
      httpBilled: Object.fromEntries(
        Object.entries(rushRoutes).map(([route, figures]) => [
          route,
          { calls: figures.calls, billed: figures.billedRequests },
        ]),
      ),
      connect: ctx.connects ? figuresOf(ctx.connects) : undefined,
      disconnect: disconnects ? figuresOf(disconnects) : undefined,
      createSession: session.counters ? figuresOf(session.counters) : undefined,
      screens: allScreens.length,
      screenLoads: Object.fromEntries(SCREEN_LABELS.map((label) => [label, figuresOf(opened.loads[label])])),
      polls: [
        ...Object.entries(pollsPerMinute).map(([route, perMinute]) => ({
          label: `http/${route}`,
          callsInRush: run.screens.reduce((sum, screen) => sum + (screen.reads.get(route)?.poll ?? 0), 0),
          perMinute,
        })),
        {
          label: 'http/parentStudentStatus',
          callsInRush: ctx.parents.reduce((sum, phone) => sum + phone.polls, 0),
          perMinute: ctx.parents.length * (60_000 / PARENT_STATUS_POLL_MS),
        },
      ],
      screenLabels: SCREEN_LABELS,
      cars: school.cars.length,
      rushMinutes: run.seconds / 60,
      pingsSent,
      dismissalMinutes: DISMISSAL_MINUTES,
      dropoffMinutes: DROPOFF_MINUTES,
      dismissalsPerMonth: 20,
      dropoffsPerMonth: 20,
      bus: { buses: busPlan.buses, mapScreens: busPlan.viewers + busPlan.adminScreens },
    });
    const loginFigures = ctx.recorder.routes('setup').login;
    return {
      startedAt,
      buses: busFigures,
      scale,
      machine: {
        cpus: cpus().length,
        node: process.version,
        platform: `${process.platform} ${process.arch}`,
        loadAverage,
      },
      plan: {
        ...ctx.plan,
        screens: { staff: staffScreens, anonymous: ctx.anonymous.length },
        arrivalWindowSec: ctx.arrivalWindowSec,
      },
      seed: {
        ms: round(school.ms, 0),
        writes: school.writes,
        students: school.studentCount,
        cars: school.cars.length + school.probeCars.length,
        staff: staffScreens,
        classrooms: school.classroomCount,
      },
      setup: {
        ms: round(ctx.setupMs, 0),
        logins: loginFigures?.calls ?? 0,
        loginLatencyMs: loginFigures?.latencyMs ?? summarize([]),
      },
      rush: {
        mode,
        seconds: round(run.seconds, 1),
        timedOut: run.rush.timedOut,
        counts: run.rush.counts,
        unexpectedAnswers: run.rush.unexpectedAnswers,
        networkErrors: ctx.recorder.networkErrors,
        serverErrors: ctx.recorder.count('rush', (status) => status >= 500),
        leftInQueue,
        requests: floors.requests,
        requestsPerSecond: round(floors.requestsPerSecond, 1),
      },
      api: { overall, routes },
      handlers,
      live: {
        deliveryMs,
        publishedToStaff: expected,
        staffScreens,
        expectedPerScreen: expected,
        receivedMin: Math.min(...received),
        receivedMax: Math.max(...received),
        lost: received.reduce((sum, n) => sum + Math.max(0, expected - n), 0),
        extra: received.reduce((sum, n) => sum + Math.max(0, n - expected), 0),
        unstamped: ctx.staff.reduce((sum, { screen }) => sum + screen.unstamped, 0),
        anonymousScreens: ctx.anonymous.length,
        anonymousEvents: ctx.anonymous.reduce((sum, screen) => sum + screen.events, 0),
        leakedQueueEvents: ctx.anonymous.reduce((sum, screen) => sum + screen.queueEvents, 0),
        messagesSent: floors.rushMessages,
        messagesPerSecond: round(floors.rushMessages / run.seconds, 1),
        averageMessageBytes: floors.messageBytes,
        eventsPerSecond: round(floors.eventsPerSecond, 1),
        byType,
      },
      parents: parentFigures(ctx, rushWindow['http/parentStudentStatus'], rushWall),
      screens: {
        staff: kinds,
        loads: { calls: loadCalls, readUnits: round(loadReadUnits, 1) },
        rush: screenReads,
        baseline,
        ratio:
          baseline && baseline.readUnitsPerEvent > 0
            ? screenReads.readUnitsPerEvent / baseline.readUnitsPerEvent
            : null,
      },
      dynamo: {
        readUnits: sumOf(rushWindow, 'ddb.readUnits'),
        writeUnits: sumOf(rushWindow, 'ddb.writeUnits'),
        estimatedWriteUnits: sumOf(rushWindow, 'ddb.estimatedWriteUnits'),
        writeUnitsPerCarAdded: addCalls > 0 ? addWrites / addCalls : 0,
        queueWriteUnitsPerCarAdded:
          addCalls > 0 ? (addWrites - addSequenceWrites - addRecordWrites) / addCalls : 0,
        recordWriteUnitsPerCarAdded: addCalls > 0 ? addRecordWrites / addCalls : 0,
        sequenceWriteUnitsPerEvent:
          publishedTo(rushWindow, channel) > 0
            ? sumOf(rushWindow, 'ddb.sequenceWriteUnits') / publishedTo(rushWindow, channel)
            : 0,
        queueReads: { early, late },
        addToBatch,
      },
      memory: { server: serverMemory, generatorPeakRssMb: generatorPeakRss / (1024 * 1024) },
      cpu: cpuFigures,
      timeline: timelineOf(ctx, run, cpu),
      floor: {
        put: floors.put,
        broadcast: floors.broadcast,
        putP50Ms: putP50,
        broadcastP99Ms: broadcastP99,
        apiP50OverPutP50: putP50 > 0 ? overall.p50 / putP50 : 0,
        fanoutP99OverBroadcastP99: broadcastP99 > 0 ? deliveryMs.p99 / broadcastP99 : 0,
      },
      cost,
    };
  } finally {
    clearInterval(rssSampler);
    fleet?.stop();
    closeWebScreens(ctx, openScreens);
    await ctx.stop();
  }
};
