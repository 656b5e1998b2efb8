/**
 * The rush phases: the bus fleet started before it; the main rush with the
 * buses running, measured until every event was delivered; the naive bus
 * relay after it; the baseline rush (the same screens reading every list
 * again per event). Each answers plain figures (`types/`).
 */
import { createDb, vehicles } from '@curbside/store';
import { belongsTo } from './belongs';
import { busPlanFor, seedBuses, startBusFleet } from './buses';
import { cpuSampler } from './cpu';
import { diff, perCall } from './meter-window';
import { clearLeftovers, type Stage, settleDelivery, startSession } from './phases';
import {
  closeWebScreens,
  openWebScreens,
  type RushRun,
  runRush,
  rushFiguresOf,
  tallyReads,
} from './rush-run';
import type { Screen } from './screens';
import type { BenchContext } from './setup';
import { round, sleep, summarize } from './stats';
import {
  type BaselineFigures,
  type BusRun,
  type CpuSample,
  type KindTraffic,
  type MainRushFigures,
  type RushWindow,
  type ScreenKind,
  TRAFFIC_KINDS,
  type TrafficKind,
} from './types';
import { seedWaysHome } from './ways';

/** How long the naive bus relay runs for the comparison, after the rush. */
const NAIVE_BUS_SECONDS = 10;
/** The naive relay's window in a quick run (`BenchOptions.quick`). */
const QUICK_NAIVE_BUS_SECONDS = 3;
/** The baseline rush: this share of the cars over this share of the window (the same arrival rate). */
const BASELINE_SHARE = 1 / 8;
/**
 * The baseline's screens saturate a laptop: its rush stops this long after
 * its arrival window, finished or not (what it left is cleared; its reads per
 * event are measured over what it did).
 */
const BASELINE_OVERTIME_MS = 20_000;

type BusPlan = ReturnType<typeof busPlanFor>;

/** Seeds the school's buses and starts the fleet (drivers at 1 Hz, map viewers, admin maps); answers its plan. */
export const startBuses = async (stage: Stage, scale: number): Promise<BusPlan> => {
  const { ctx } = stage;
  const plan = busPlanFor(scale);
  ctx.log(`Starting ${plan.buses} buses at 1 Hz and ${plan.viewers} map viewers…`);
  const db = createDb({ table: ctx.tableName, endpoint: ctx.endpoint, meter: false });
  const tokens = await seedBuses(db, ctx.school.schoolId, ctx.busNumbers);
  // 30% of the school rides these buses, 10% walks (issue 52): their plans, now the buses exist.
  const buses = (await vehicles.listBySchool(db, ctx.school.schoolId)).filter(
    (vehicle) => vehicle.type === 'bus',
  );
  await seedWaysHome(db, {
    schoolId: ctx.school.schoolId,
    admin: ctx.school.admin,
    buses,
    busRiders: ctx.school.busRiders,
    walkers: ctx.school.walkers,
  });
  stage.lineBuses = buses.map((bus) => bus.number);
  stage.fleet = await startBusFleet({
    url: ctx.server.url,
    ...tokens,
    staffCookie: ctx.front[0]?.cookie as string,
    busNumbers: ctx.busNumbers,
    viewers: plan.viewers,
    adminScreens: plan.adminScreens,
    belongs: belongsTo(ctx.ids),
  });
  await stage.fleet.warm();
  return plan;
};

/** The rush in windows of time: latency, CPU per process, and queue reads against queue length and pickups. */
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

/** Messages in and out so far, per kind of connection (staff screens by kind, phones, the fleet's maps and drivers). */
export const trafficOf = (stage: Stage): Record<TrafficKind, KindTraffic> => {
  const { ctx } = stage;
  const of = (screens: readonly Screen[]): KindTraffic => ({
    connections: screens.length,
    in: screens.reduce((sum, screen) => sum + screen.pingsSent + screen.requestsSent, 0),
    out: screens.reduce((sum, screen) => sum + screen.received, 0),
  });
  const staffOf = (kind: ScreenKind) =>
    of(ctx.staff.filter((member) => member.kind === kind).map((member) => member.screen));
  const fleet = stage.fleet?.traffic();
  const fleetKind = (t: { connections: number; sent: number; received: number } | undefined) =>
    t ? { connections: t.connections, in: t.sent, out: t.received } : { connections: 0, in: 0, out: 0 };
  return {
    front: staffOf('front'),
    back: staffOf('back'),
    teacher: staffOf('teacher'),
    'admin map': fleetKind(fleet?.adminMaps),
    parent: of(ctx.parents.map((phone) => phone.screen)),
    'map viewer': fleetKind(fleet?.viewers),
    driver: fleetKind(fleet?.drivers),
    anonymous: of(ctx.anonymous),
  };
};

/** What changed between two traffic counts. */
export const trafficBetween = (
  after: Record<TrafficKind, KindTraffic>,
  before: Record<TrafficKind, KindTraffic>,
): Record<TrafficKind, KindTraffic> =>
  Object.fromEntries(
    TRAFFIC_KINDS.map((kind) => [
      kind,
      {
        connections: after[kind].connections,
        in: after[kind].in - before[kind].in,
        out: after[kind].out - before[kind].out,
      },
    ]),
  ) as Record<TrafficKind, KindTraffic>;

/**
 * The rush on the open screens, with the buses counted over it, the CPU and
 * the meter sampled in windows; then every event delivered.
 */
export const rushPhase = async (stage: Stage, sessionId: number): Promise<MainRushFigures> => {
  const { ctx, mode } = stage;
  const fleet = stage.fleet!;
  await ctx.server.ask({ type: 'memoryBaseline' });
  const cpu = cpuSampler(() => ctx.server.ask({ type: 'cpu' }));
  let run = undefined as unknown as RushRun;
  const trafficBefore = trafficOf(stage);
  const busWindow = await fleet.window('coalesced', ctx.meterNow, async () => {
    run = await runRush(ctx, {
      sessionId,
      mode,
      screens: stage.screens,
      cars: ctx.school.cars,
      buses: stage.lineBuses,
      arrivalWindowSec: ctx.arrivalWindowSec,
      phase: 'rush',
      cpu,
    });
  });
  const traffic = trafficBetween(trafficOf(stage), trafficBefore);
  const cpuFigures = cpu.figures(run.samples[0]?.cpu as CpuSample, run.samples.at(-1)?.cpu as CpuSample);
  const serverMemory = await ctx.server.ask({ type: 'memory' });
  ctx.log(`Rush done in ${run.seconds.toFixed(1)} s.`);
  await settleDelivery(ctx);
  const delivered = Date.now();
  return {
    ...rushFiguresOf(run),
    // The rush's messages (not the naive relay's or the baseline's load after it).
    deliveryMs: summarize(ctx.latency.between(run.startedWall, delivered)),
    parentDeliveryMs: summarize(ctx.parentLatency.between(run.startedWall, delivered)),
    cpu: cpuFigures,
    serverMemory,
    timeline: timelineOf(ctx, run, cpu),
    buses: { deliveryMs: summarize(fleet.delivery.between(run.startedWall, Date.now())), window: busWindow },
    traffic,
  };
};

/** The naive bus relay (every position to every viewer) for a while after the rush; then the fleet stops. */
export const naiveBusPhase = async (stage: Stage, plan: BusPlan, rush: MainRushFigures): Promise<BusRun> => {
  const { ctx } = stage;
  const fleet = stage.fleet!;
  const seconds = ctx.options.quick ? QUICK_NAIVE_BUS_SECONDS : NAIVE_BUS_SECONDS;
  ctx.log(`The naive bus relay (every position to every viewer) for ${seconds} s…`);
  await ctx.server.ask({ type: 'busRelay', mode: 'naive' });
  const naive = await fleet.window('naive', ctx.meterNow, () => sleep(seconds * 1000));
  await ctx.server.ask({ type: 'busRelay', mode: 'coalesced' });
  const leaks = fleet.leaks();
  const fleetTraffic = fleet.traffic();
  const crossed =
    fleetTraffic.viewers.crossed + fleetTraffic.adminMaps.crossed + fleetTraffic.drivers.crossed;
  fleet.stop();
  stage.fleet = undefined;
  return { ...plan, deliveryMs: rush.buses.deliveryMs, rush: rush.buses.window, naive, leaks, crossed };
};

/** The baseline: the same screens reading every list again per event, in a shorter rush of its own session. */
export const baselinePhase = async (stage: Stage): Promise<BaselineFigures> => {
  const { ctx } = stage;
  const session = await startSession(ctx);
  const cars = ctx.school.cars.slice(0, Math.max(8, Math.round(ctx.school.cars.length * BASELINE_SHARE)));
  const windowSec = Math.max(5, Math.round(ctx.arrivalWindowSec * BASELINE_SHARE));
  ctx.log(`Baseline: opening the staff screens again, reading every list per event…`);
  const reopened = await openWebScreens(ctx, session.id, 'refetch-all');
  stage.screens = reopened.screens;
  const base = await runRush(ctx, {
    sessionId: session.id,
    mode: 'refetch-all',
    screens: stage.screens,
    cars,
    buses: stage.lineBuses?.slice(0, Math.max(1, Math.round(stage.lineBuses.length * BASELINE_SHARE))),
    arrivalWindowSec: windowSec,
    phase: 'baseline',
    overtimeMs: BASELINE_OVERTIME_MS,
  });
  await settleDelivery(ctx);
  const screens = stage.screens;
  closeWebScreens(ctx, screens);
  stage.screens = [];
  await clearLeftovers(ctx, session.id);
  return { ...rushFiguresOf(base), reads: tallyReads(screens) };
};
