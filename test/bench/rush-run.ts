/**
 * One rush against open web screens: the cars arrive at the front tablets
 * over the arrival window, the back tablets load them, the teachers release
 * their students, and every staff screen follows as the web client does
 * (patching, or, for the baseline, reading every list again per event).
 */
import type { MeterSnapshot } from '@curbside/store';
import type { cpuSampler } from './cpu';
import type { Phase } from './http';
import { diff } from './meter-window';
import {
  arrivalTimes,
  type BusAtCurb,
  backStaff,
  frontStaff,
  loadBus,
  queueBus,
  Rush,
  teacherStaff,
} from './rush';
import type { Car } from './school';
import type { BenchContext } from './setup';
import { sleep } from './stats';
import {
  READ_REASONS,
  type RushFigures,
  type RushSample,
  type ScreenMode,
  type ScreenReadTally,
} from './types';
import { WebScreen } from './web-screen';

/** The rush stops by itself this long after the last scheduled arrival, finished or not (by default). */
const OVERTIME_MS = 120_000;

export interface RushRun {
  mode: ScreenMode;
  sessionId: number;
  rush: Rush;
  cars: number;
  arrivalWindowSec: number;
  seconds: number;
  startedWall: number;
  endedWall: number;
  before: MeterSnapshot;
  after: MeterSnapshot;
  samples: RushSample[];
  screens: WebScreen[];
}

/**
 * Opens a web screen of the session on every staff connection (as each staff
 * member's page would): each reads its lists once. Answers the screens and
 * the meter of their loads.
 */
export const openWebScreens = async (ctx: BenchContext, sessionId: number, mode: ScreenMode) => {
  const previous = ctx.recorder.phase;
  ctx.recorder.phase = 'load';
  const before = await ctx.meterNow();
  const screens = ctx.staff.map((member) => {
    const web = new WebScreen(member.kind, sessionId, member.client, mode, member.classroomIds);
    member.screen.onMessage = (message) => web.receive(message);
    return web;
  });
  for (let i = 0; i < screens.length; i += 8)
    await Promise.all(screens.slice(i, i + 8).map((web) => web.open()));
  const loads = diff(await ctx.meterNow(), before);
  ctx.recorder.phase = previous;
  return { screens, loads };
};

export const closeWebScreens = (ctx: BenchContext, screens: readonly WebScreen[]) => {
  for (const member of ctx.staff) member.screen.onMessage = undefined;
  for (const web of screens) web.stop();
};

export const runRush = async (
  ctx: BenchContext,
  options: {
    sessionId: number;
    mode: ScreenMode;
    screens: WebScreen[];
    cars: readonly Car[];
    /** The buses that come to the line (their riders' plans written): none when the school has no bus riders. */
    buses?: readonly string[];
    arrivalWindowSec: number;
    phase: Phase;
    /** How long past the arrival window the rush may run before it stops by itself. */
    overtimeMs?: number;
    /** Samples the meter and CPU in windows (the main rush). */
    cpu?: ReturnType<typeof cpuSampler>;
  },
): Promise<RushRun> => {
  const { sessionId, screens, cars, arrivalWindowSec, cpu } = options;
  const staffAt = (kind: 'front' | 'back' | 'teacher') =>
    ctx.staff
      .map((member, i) => ({ member, web: screens[i] as WebScreen }))
      .filter(({ member }) => member.kind === kind);
  const frontStaffers = staffAt('front');
  const firstFront = frontStaffers[0]?.web;
  ctx.recorder.phase = options.phase;
  const arrivalMs = arrivalWindowSec * 1000;
  const rush = new Rush(sessionId, performance.now() + arrivalMs + (options.overtimeMs ?? OVERTIME_MS));
  // The buses are at the curb when the bell rings, queued at the front tablets before the rush's
  // window opens (its add-to-queue figures stay per car: a bus's visit carries its riders). Each
  // tablet queues its buses one after another, as the person holding it types them and as
  // `frontStaff` queues its cars; the tablets at once.
  const buses = options.buses ?? [];
  const atCurb = (
    await Promise.all(
      ctx.front.map(async (client, lane) => {
        const queued: BusAtCurb[] = [];
        for (const [k, number] of buses.entries()) {
          if (k % ctx.front.length !== lane) continue;
          const bus = await queueBus(rush, client, number);
          if (bus) queued.push(bus);
        }
        return queued;
      }),
    )
  ).flat();
  const before = await ctx.meterNow();
  const started = performance.now();
  const startedWall = Date.now();
  for (const bus of atCurb) loadBus(rush, bus);
  const times = arrivalTimes(cars.length, arrivalMs, 42);
  const lanes = ctx.front.map((_, lane) =>
    cars.flatMap((car, i) => (i % ctx.front.length === lane ? [{ car, at: times[i] as number }] : [])),
  );
  ctx.log(
    `Rush (${options.mode === 'patch' ? 'screens patch their lists' : 'screens read every list again per event'}): ` +
      `${cars.length} cars over ${arrivalWindowSec} s (${atCurb.length} buses at the curb), ${ctx.front.length} front, ${ctx.back.length} back, ` +
      `${ctx.teachers.length} teachers, ${ctx.staff.length} staff + ${ctx.anonymous.length} anonymous screens…`,
  );
  const completedSoFar = () =>
    rush.counts.completedInBatches + rush.counts.walkUpCompleted + rush.counts.dismissed;
  const samples: RushSample[] = [
    {
      at: started,
      wall: startedWall,
      snapshot: before,
      completed: 0,
      activeEntries: 0,
      cpu: await cpu?.sample(),
    },
  ];
  const takeSample = async () => {
    const [snapshot, cpuNow] = await Promise.all([ctx.meterNow(), cpu?.sample()]);
    samples.push({
      at: performance.now(),
      wall: Date.now(),
      snapshot,
      completed: completedSoFar(),
      activeEntries: firstFront?.queue().length ?? 0,
      cpu: cpuNow,
    });
  };
  const windowMs = Math.min(15_000, Math.max(3_000, arrivalMs / 12));
  let sampling = cpu !== undefined;
  const sampler = (async () => {
    while (sampling) {
      const next = (samples.at(-1)?.at ?? started) + windowMs;
      while (sampling && performance.now() < next) await sleep(Math.min(250, next - performance.now()));
      if (!sampling) break;
      await takeSample();
    }
  })();
  const progress = setInterval(() => {
    const c = rush.counts;
    ctx.log(
      `  ${Math.round((performance.now() - started) / 1000)} s: queued ${c.queued}, batched ${c.batched}, ` +
        `completed ${completedSoFar()}, released ${c.released}, events/screen ${ctx.staff[0]?.screen.events ?? 0}`,
    );
  }, 15_000);

  let teachersStopped = false;
  const teachers = staffAt('teacher');
  const teacherTasks = teachers.map(({ member, web }, i) =>
    teacherStaff(
      rush,
      member.client,
      web,
      member.classroomIds,
      (i * 5000) / teachers.length,
      () => teachersStopped,
    ),
  );
  const backTasks = staffAt('back').map(({ member, web }, i) =>
    backStaff(rush, member.client, web, member.screen, 1_000 + i),
  );
  await Promise.all(lanes.map((lane, i) => frontStaff(rush, ctx.front[i]!, lane, started, 100 + i)));
  rush.arrivalsDone = true;
  await Promise.all(backTasks);
  rush.backDone = true;
  await rush.settle();
  teachersStopped = true;
  await Promise.all(teacherTasks);
  clearInterval(progress);
  sampling = false;
  await sampler;
  await takeSample();
  return {
    mode: options.mode,
    sessionId,
    rush,
    cars: cars.length,
    arrivalWindowSec,
    seconds: (performance.now() - started) / 1000,
    startedWall,
    endedWall: Date.now(),
    before,
    after: samples.at(-1)?.snapshot as MeterSnapshot,
    samples,
    screens,
  };
};

/** The rush as plain figures: what it did, and what the server's meter counted meanwhile. */
export const rushFiguresOf = (run: RushRun): RushFigures => ({
  mode: run.mode,
  cars: run.cars,
  arrivalWindowSec: run.arrivalWindowSec,
  seconds: run.seconds,
  timedOut: run.rush.timedOut,
  counts: { ...run.rush.counts },
  unexpectedAnswers: [...run.rush.unexpectedAnswers],
  window: diff(run.after, run.before),
});

/** What the screens read, all together: per route by reason, their gaps and failed reads. */
export const tallyReads = (screens: readonly WebScreen[]): ScreenReadTally => {
  const byRoute: ScreenReadTally['byRoute'] = {};
  for (const screen of screens) {
    for (const [route, reasons] of screen.reads) {
      const into = byRoute[route] ?? { load: 0, mount: 0, poll: 0, gap: 0, event: 0 };
      byRoute[route] = into;
      for (const reason of READ_REASONS) into[reason] += reasons[reason];
    }
  }
  return {
    byRoute,
    gaps: screens.reduce((sum, screen) => sum + screen.gaps, 0),
    failedReads: screens.reduce((sum, screen) => sum + screen.failedReads, 0),
  };
};
