/**
 * The benchmark's phases around the rush, in the order `runBenchmark` runs
 * them: each does its part against the running server and answers plain
 * figures (`types/`); what stays open between phases (the staff screens,
 * the bus fleet) is held on the `Stage`, so that a failure half-way still
 * closes it. The rush itself, the buses and the baseline are in
 * `rush-phases.ts`.
 */
import { cpus, loadavg } from 'node:os';
import type { BusFleet } from './buses';
import { bareBroadcast, barePutLoop } from './floor';
import { BenchClient } from './http';
import { diff, publishedAll, publishedTo, sumOf } from './meter-window';
import { addToBatchProbe, queueReadProbe, warmUp } from './probes';
import { closeWebScreens, openWebScreens, tallyReads } from './rush-run';
import { BENCH_PASSWORD } from './school';
import { concerns } from './screens';
import type { BenchContext } from './setup';
import { round, sleep } from './stats';
import type {
  AfterRushFigures,
  BroadcastFloor,
  FloorFigures,
  MachineFigures,
  MainRushFigures,
  PutFloor,
  ScreenMode,
  SessionReportRead,
  SetupFigures,
  Tallies,
  WarmUpFigures,
} from './types';
import type { WebScreen } from './web-screen';

/** What the phases share at run time: the context, and what is open (closed by `closeStage` whatever happens). */
export interface Stage {
  ctx: BenchContext;
  mode: ScreenMode;
  /** The staff screens open as the web client runs them (none between rushes). */
  screens: WebScreen[];
  fleet: BusFleet | undefined;
  /** The buses that come to the car line in a rush (their riders' plans written by `startBuses`). */
  lineBuses?: string[];
}

export const closeStage = (stage: Stage) => {
  stage.fleet?.stop();
  stage.fleet = undefined;
  closeWebScreens(stage.ctx, stage.screens);
  stage.screens = [];
};

const SESSION_LENGTH_MS = 2 * 60 * 60 * 1000;

// ── Helpers of several phases ───────────────────────────────────────────────

/** Ends the active session, if any, and starts one; answers it and the meter of its creation. */
export const startSession = async (ctx: BenchContext) => {
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
export const clearLeftovers = async (ctx: BenchContext, sessionId: number) => {
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

/**
 * What each staff screen should have received of `published` staff events:
 * a screen following the whole line every one; a teacher's screen (subscribed
 * to its classrooms) those the reference screen got that concern one of its
 * classrooms, and every alert and event outside a session.
 */
export const expectedOf = (ctx: BenchContext, published: number): number[] => {
  const log = ctx.reference?.concernLog ?? [];
  return ctx.staff.map(({ screen }) => {
    const followed = screen.classroomIds;
    if (followed === null) return published;
    let n = 0;
    for (const concern of log) if (concerns(concern, followed)) n++;
    return n;
  });
};

/**
 * Waits until every staff screen has every staff event it follows, published
 * since they connected (or 10 s); answers how many were published.
 */
export const settleDelivery = async (ctx: BenchContext) => {
  const channel = `school#${ctx.school.schoolId}#staff`;
  const expectedNow = async () => publishedTo(diff(await ctx.meterNow(), ctx.connected), channel);
  let expected = await expectedNow();
  const behind = () => {
    const wanted = expectedOf(ctx, expected);
    return ctx.staff.some(({ screen }, i) => screen.events < (wanted[i] ?? 0));
  };
  const deadline = performance.now() + 10_000;
  while (behind() && performance.now() < deadline) {
    await sleep(50);
    expected = await expectedNow();
  }
  await sleep(300); // stragglers or duplicates, and anything an anonymous screen should not get
  return expected;
};

// ── Before the run ──────────────────────────────────────────────────────────

export const machineAtStart = (): MachineFigures => ({
  cpus: cpus().length,
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
  loadAverage: loadavg().map((value) => round(value, 2)),
});

/** The load generator's own peak RSS over the run, sampled every 250 ms. */
export const watchGeneratorRss = () => {
  let peak = process.memoryUsage.rss();
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 250);
  return { peakMb: () => peak / (1024 * 1024), stop: () => clearInterval(sampler) };
};

// ── Setup ───────────────────────────────────────────────────────────────────

/** What `startBench` seeded and connected. */
export const setupFigures = (ctx: BenchContext): SetupFigures => {
  const { school } = ctx;
  const staffScreens = ctx.staff.length;
  return {
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
    ms: round(ctx.setupMs, 0),
    staff: { front: ctx.front.length, back: ctx.back.length, teacher: ctx.teachers.length },
    staffChannel: `school#${school.schoolId}#staff`,
    connects: ctx.connects,
    subscribes: ctx.subscribes,
  };
};

// ── Warm-up: the session, the read probe before any pickup, the screens ─────

export const warmUpPhase = async (stage: Stage): Promise<WarmUpFigures> => {
  const { ctx, mode } = stage;
  const session = await startSession(ctx);
  ctx.log('Probing queue reads before the rush…');
  const early = await queueReadProbe(ctx, session.id, 0);
  ctx.log(
    `Opening ${ctx.staff.length} staff screens (${mode === 'patch' ? 'patching' : 'reading every list per event'})…`,
  );
  const opened = await openWebScreens(ctx, session.id, mode);
  stage.screens = opened.screens;
  ctx.log('Warming up every rush route…');
  await warmUp(ctx, session.id);
  return { sessionId: session.id, createSession: session.counters, early, loads: opened.loads };
};

// ── After the rush: the screens closed, the queue cleared and read again ────

export const afterRushPhase = async (
  stage: Stage,
  sessionId: number,
  rush: MainRushFigures,
): Promise<AfterRushFigures> => {
  const { ctx } = stage;
  const screens = stage.screens;
  closeWebScreens(ctx, screens);
  stage.screens = [];
  const leftInQueue = await clearLeftovers(ctx, sessionId);
  const completed = rush.counts.completedInBatches + rush.counts.walkUpCompleted + rush.counts.dismissed;
  ctx.log('Probing queue reads after it…');
  const late = await queueReadProbe(ctx, sessionId, completed);
  return { reads: tallyReads(screens), leftInQueue, late };
};

// ── The rush's session report, as the school admin reads it ───────────────

/** Three reads of the rush's session report (about 800 cars at scale 1): their times and read units. */
export const sessionReportPhase = async (
  ctx: BenchContext,
  sessionId: number,
): Promise<SessionReportRead> => {
  ctx.log('Reading the rush session report as the school admin…');
  const admin = new BenchClient(ctx.server.url, ctx.recorder);
  ctx.clients.push(admin);
  await admin.login(ctx.school.admin.username, BENCH_PASSWORD);
  const before = await ctx.meterNow();
  const reads: number[] = [];
  let status = 0;
  let pickups: Array<{ entryId: string }> = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const answer = await admin.call('sessionReport', 'GET', `/api/sessions/${sessionId}/report`);
    reads.push(round(performance.now() - started, 1));
    status = answer.status;
    if (answer.status === 200) pickups = answer.body.pickups;
  }
  const window = diff(await ctx.meterNow(), before);
  return {
    cars: new Set(pickups.map((pickup) => pickup.entryId)).size,
    pickups: pickups.length,
    reads,
    slowestMs: Math.max(...reads),
    readUnitsPerRead: round(sumOf(window, 'ddb.readUnits') / reads.length, 1),
    status,
  };
};

// ── Add-to-batch with 50 and with 300 cars waiting ──────────────────────────

export const batchProbePhase = async (ctx: BenchContext) => {
  const session = await startSession(ctx);
  ctx.log('Probing add-to-batch with 50 and 300 cars waiting…');
  return addToBatchProbe(ctx, session.id);
};

// ── Floors ──────────────────────────────────────────────────────────────────

/** The floors at the rush's rates: a bare PutItem loop and a bare `ws` broadcast, each `floorRuns` times. */
export const floorPhase = async (ctx: BenchContext, rush: MainRushFigures): Promise<FloorFigures> => {
  const rushRoutes = ctx.recorder.routes('rush');
  const addRoute = rushRoutes.addToQueue;
  const itemBytes = addRoute && addRoute.calls > 0 ? Math.round(addRoute.bytes / addRoute.calls) : 700;
  const staffClients = ctx.staff.length;
  const requests = Object.values(rushRoutes).reduce((sum, route) => sum + route.calls, 0);
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
        itemBytes,
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

// ── The end: every screen closed, what everyone counted ─────────────────────

/** Closes every screen (`$disconnect` runs for each) and answers the meter of the disconnects. */
export const closeScreens = async (ctx: BenchContext) => {
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

const addCounts = (into: Record<string, number>, counts: Map<string, number>) => {
  for (const [key, n] of counts) into[key] = (into[key] ?? 0) + n;
  return into;
};

/** What the screens, the phones and the clients counted over the whole run; `published`: the staff events published since they connected. */
export const talliesOf = (ctx: BenchContext, published: number): Tallies => {
  const staffByType: Record<string, number> = {};
  for (const { screen } of ctx.staff) addCounts(staffByType, screen.byType);
  const parentsByType: Record<string, number> = {};
  for (const phone of ctx.parents) addCounts(parentsByType, phone.received);
  const allScreens = [
    ...ctx.staff.map(({ screen }) => screen),
    ...ctx.anonymous,
    ...ctx.parents.map(({ screen }) => screen),
  ];
  return {
    staff: {
      kinds: ctx.staff.map(({ kind }) => kind),
      received: ctx.staff.map(({ screen }) => screen.events),
      expected: expectedOf(ctx, published),
      outside: ctx.staff.reduce((sum, { screen }) => sum + screen.outside, 0),
      unstamped: ctx.staff.reduce((sum, { screen }) => sum + screen.unstamped, 0),
      byType: staffByType,
    },
    anonymous: {
      screens: ctx.anonymous.length,
      events: ctx.anonymous.reduce((sum, screen) => sum + screen.events, 0),
      queueEvents: ctx.anonymous.reduce((sum, screen) => sum + screen.queueEvents, 0),
    },
    parents: {
      phones: ctx.parents.length,
      byType: parentsByType,
      leaks: ctx.parents.reduce((sum, phone) => sum + phone.leaks, 0),
      reads: ctx.parents.reduce((sum, phone) => sum + phone.reads, 0),
      polls: ctx.parents.reduce((sum, phone) => sum + phone.polls, 0),
    },
    pingsSent: allScreens.reduce((sum, screen) => sum + screen.pingsSent, 0),
    crossed: allScreens.reduce((sum, screen) => sum + screen.crossed, 0),
    calls: {
      routes: ctx.recorder.routes('rush'),
      overall: ctx.recorder.overall('rush'),
      networkErrors: ctx.recorder.networkErrors,
      serverErrors: ctx.recorder.count('rush', (status) => status >= 500),
      login: ctx.recorder.routes('setup').login,
    },
  };
};
