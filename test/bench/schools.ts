/**
 * `npm run bench -- --schools N`: N schools' rushes at the same time against
 * one laptop runtime (issue 31, item 3). Each school is seeded and connected
 * as the single-school run does (staff screens as the web client runs them,
 * teachers subscribed to their classrooms, anonymous screens, parents'
 * phones, its bus fleet with map viewers and admin maps); then every school's
 * rush starts at once. Every screen, phone, map viewer and driver checks that
 * each message it gets belongs to its own school (`belongs.ts`); the run
 * counts what crossed (budget 0), what each staff screen lost, and the posts
 * each school's connections received per second, as run and over a real
 * 30-minute dismissal, against API Gateway's default quota of 10,000
 * WebSocket posts a second per region. No warm-up, baseline, probe or floor:
 * the single-school run measures those.
 */
import { DISMISSAL_MINUTES } from './assemble';
import { clearLeftovers, expectedOf, type Stage, settleDelivery, startSession } from './phases';
import { startBuses, trafficBetween, trafficOf } from './rush-phases';
import { closeWebScreens, openWebScreens, type RushRun, runRush } from './rush-run';
import { type BenchContext, openSchool, startRuntime } from './setup';
import { round } from './stats';
import {
  type BenchOptions,
  type KindTraffic,
  type SchoolFigures,
  type SchoolsReport,
  TRAFFIC_KINDS,
  type TrafficKind,
} from './types';

/** API Gateway's default quota of WebSocket posts (postToConnection) per second per account and region. */
export const REGION_POSTS_PER_SECOND = 10_000;
/** Screens ping every 30 s; each ping is answered by a post (the pong). */
const PONGS_PER_SOCKET_PER_SECOND = 1 / 30;

/** Events (no pongs, no answers) every staff screen, phone and anonymous screen of a school received so far. */
const eventsOf = (ctx: BenchContext) =>
  [
    ...ctx.staff.map(({ screen }) => screen),
    ...ctx.anonymous,
    ...ctx.parents.map(({ screen }) => screen),
  ].reduce((sum, screen) => sum + screen.events, 0);

/** One school's figures from its rush, its traffic over the rush and its screens' tallies. */
export const schoolFiguresOf = (input: {
  schoolId: number;
  cars: number;
  run: Pick<RushRun, 'seconds'> & { timedOut: boolean; queued: number };
  leftInQueue: number;
  traffic: Record<TrafficKind, KindTraffic>;
  /** Car-line and parent events received over the rush (event-driven posts). */
  events: number;
  /** Bus messages the map screens received over the rush. */
  busMessages: number;
  published: number;
  expected: number[];
  received: number[];
  outside: number;
  crossed: number;
}): SchoolFigures => {
  const posts = TRAFFIC_KINDS.reduce((sum, kind) => sum + input.traffic[kind].out, 0);
  const sockets = TRAFFIC_KINDS.reduce((sum, kind) => sum + input.traffic[kind].connections, 0);
  const mapScreens = input.traffic['map viewer'].connections + input.traffic['admin map'].connections;
  const seconds = Math.max(0.001, input.run.seconds);
  // A real dismissal: the rush's events spread over its 30 minutes, the bus map's one message per
  // map screen per second as measured, and every socket's pong every 30 s.
  const busPerSecond = input.busMessages / seconds;
  const realPerSecond =
    input.events / (DISMISSAL_MINUTES * 60) + busPerSecond + sockets * PONGS_PER_SOCKET_PER_SECOND;
  const asRunPerSecond = posts / seconds;
  return {
    schoolId: input.schoolId,
    cars: input.cars,
    queued: input.run.queued,
    seconds: round(input.run.seconds, 1),
    timedOut: input.run.timedOut,
    leftInQueue: input.leftInQueue,
    sockets,
    mapScreens,
    posts,
    events: input.events,
    busMessages: input.busMessages,
    postsPerSecond: round(asRunPerSecond, 1),
    realPostsPerSecond: round(realPerSecond, 2),
    schoolsPerQuota: asRunPerSecond > 0 ? Math.floor(REGION_POSTS_PER_SECOND / asRunPerSecond) : 0,
    realSchoolsPerQuota: realPerSecond > 0 ? Math.floor(REGION_POSTS_PER_SECOND / realPerSecond) : 0,
    published: input.published,
    lost: input.received.reduce((sum, n, i) => sum + Math.max(0, (input.expected[i] ?? 0) - n), 0),
    extra: input.received.reduce((sum, n, i) => sum + Math.max(0, n - (input.expected[i] ?? 0)), 0),
    outside: input.outside,
    crossed: input.crossed,
  };
};

export const runSchools = async (options: BenchOptions & { schools: number }): Promise<SchoolsReport> => {
  const { scale, schools: count } = options;
  if (!(Number.isInteger(count) && count >= 1 && count <= 50))
    throw new Error(`--schools must be a whole number from 1 to 50, not ${count}`);
  if (!(scale > 0 && scale <= 20)) throw new Error(`--scale must be above 0 and at most 20, not ${scale}`);
  const log = options.log ?? (() => {});
  const startedAt = new Date().toISOString();
  // Every school's arrivals over N times the single school's window: the machine carries the cars a
  // second of one school at N times the scale (ten at 0.1: 800 cars over 180 s, as one school at scale 1).
  const durationSec = options.durationSec ?? Math.min(300, Math.max(15, Math.round(180 * scale * count)));
  const runtime = await startRuntime(options);
  const stages: Stage[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const prefix = `bench${i + 1}`;
      const ctx = await openSchool(
        runtime,
        { ...options, durationSec, log: (line) => log(`[${prefix}] ${line}`) },
        { prefix, schoolIndex: i },
      );
      const stage: Stage = { ctx, mode: 'patch', screens: [], fleet: undefined };
      stages.push(stage);
      await startBuses(stage, scale);
    }
    log(`Opening the staff screens of ${count} schools…`);
    const sessions: number[] = [];
    for (const stage of stages) {
      const session = await startSession(stage.ctx);
      sessions.push(session.id);
      stage.screens = (await openWebScreens(stage.ctx, session.id, 'patch')).screens;
    }
    const before = stages.map((stage) => ({
      traffic: trafficOf(stage),
      events: eventsOf(stage.ctx),
      bus: busOf(stage),
    }));
    const meterBefore = await runtime.meterNow();
    log(`${count} rushes at once…`);
    const started = performance.now();
    const runs = await Promise.all(
      stages.map((stage, i) =>
        runRush(stage.ctx, {
          sessionId: sessions[i] as number,
          mode: 'patch',
          screens: stage.screens,
          cars: stage.ctx.school.cars,
          arrivalWindowSec: stage.ctx.arrivalWindowSec,
          phase: 'rush',
        }),
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    const meterAfter = await runtime.meterNow();
    const published = await Promise.all(stages.map((stage) => settleDelivery(stage.ctx)));
    const figures = stages.map((stage, i) => {
      const was = before[i]!;
      return {
        traffic: trafficBetween(trafficOf(stage), was.traffic),
        events: eventsOf(stage.ctx) - was.events,
        busMessages: busOf(stage) - was.bus,
      };
    });
    const left: number[] = [];
    for (const [i, stage] of stages.entries()) {
      closeWebScreens(stage.ctx, stage.screens);
      stage.screens = [];
      left.push(await clearLeftovers(stage.ctx, sessions[i] as number));
    }
    const perSchool = stages.map((stage, i) => {
      const { ctx } = stage;
      const run = runs[i]!;
      const fleet = stage.fleet?.traffic();
      const screensCrossed = [
        ...ctx.staff.map(({ screen }) => screen),
        ...ctx.anonymous,
        ...ctx.parents.map(({ screen }) => screen),
      ].reduce((sum, screen) => sum + screen.crossed, 0);
      return schoolFiguresOf({
        schoolId: ctx.school.schoolId,
        cars: run.cars,
        run: { seconds: run.seconds, timedOut: run.rush.timedOut, queued: run.rush.counts.queued },
        leftInQueue: left[i] ?? -1,
        ...figures[i]!,
        published: published[i] ?? 0,
        expected: expectedOf(ctx, published[i] ?? 0),
        received: ctx.staff.map(({ screen }) => screen.events),
        outside: ctx.staff.reduce((sum, { screen }) => sum + screen.outside, 0),
        crossed:
          screensCrossed +
          (fleet ? fleet.viewers.crossed + fleet.adminMaps.crossed + fleet.drivers.crossed : 0),
      });
    });
    const serverPosts = sumCounter(meterAfter) - sumCounter(meterBefore);
    const first = stages[0]!.ctx;
    return {
      startedAt,
      scale,
      schools: count,
      plan: first.plan,
      arrivalWindowSec: first.arrivalWindowSec,
      seconds: round(seconds, 1),
      serverPosts,
      serverPostsPerSecond: round(serverPosts / Math.max(0.001, seconds), 1),
      perSchool,
    };
  } finally {
    for (const stage of stages) {
      stage.fleet?.stop();
      stage.fleet = undefined;
      closeWebScreens(stage.ctx, stage.screens);
      await stage.ctx.stop();
    }
    await runtime.stop();
  }
};

/** Bus messages every map screen of the school received so far (counted while the fleet counts). */
const busOf = (stage: Stage) => stage.fleet?.busMessages() ?? 0;

/** Every post the server made (the meter's `live.messages`, all labels). */
const sumCounter = (snapshot: Record<string, Record<string, number>>) =>
  Object.values(snapshot).reduce((sum, counters) => sum + (counters['live.messages'] ?? 0), 0);
