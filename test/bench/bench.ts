/**
 * The dismissal-rush benchmark, callable from the CLI (`run.ts`) and from the
 * smoke test. It seeds its own school, runs Curbside in a child process
 * (meter on), drives the rush over real HTTP and WebSocket connections from
 * this process with staff screens that behave as the web client does,
 * measures the floor on the same machine, and answers every figure as one
 * report object. Each phase answers plain figures (`phases.ts`,
 * `rush-phases.ts`); `assembleReport` (`assemble.ts`) builds the report from
 * them; the types are in `types/`.
 */
import { assembleReport } from './assemble';
import {
  afterRushPhase,
  batchProbePhase,
  closeScreens,
  closeStage,
  floorPhase,
  machineAtStart,
  type Stage,
  sessionReportPhase,
  settleDelivery,
  setupFigures,
  talliesOf,
  warmUpPhase,
  watchGeneratorRss,
} from './phases';
import { baselinePhase, naiveBusPhase, rushPhase, startBuses } from './rush-phases';
import { startBench } from './setup';
import type { BenchOptions, BenchReport } from './types';

export type { BenchOptions, BenchReport } from './types';

export const runBenchmark = async (options: BenchOptions): Promise<BenchReport> => {
  const scale = options.scale;
  if (!(scale > 0 && scale <= 20)) throw new Error(`--scale must be above 0 and at most 20, not ${scale}`);
  const startedAt = new Date().toISOString();
  const machine = machineAtStart();
  const generator = watchGeneratorRss();
  const ctx = await startBench(options);
  const stage: Stage = { ctx, mode: options.screens ?? 'patch', screens: [], fleet: undefined };
  try {
    const setup = setupFigures(ctx);
    const busPlan = await startBuses(stage, scale);
    const warmUp = await warmUpPhase(stage);
    const rush = await rushPhase(stage, warmUp.sessionId);
    const buses = await naiveBusPhase(stage, busPlan, rush);
    const afterRush = await afterRushPhase(stage, warmUp.sessionId, rush);
    const sessionReport = await sessionReportPhase(ctx, warmUp.sessionId);
    const baseline = stage.mode === 'patch' ? await baselinePhase(stage) : null;
    const addToBatch = await batchProbePhase(ctx);
    // Delivery to every screen, over everything published.
    const publishedToStaff = await settleDelivery(ctx);
    const floor = await floorPhase(ctx, rush);
    const disconnects = await closeScreens(ctx);
    return assembleReport({
      scale,
      startedAt,
      machine,
      setup,
      warmUp,
      rush,
      buses,
      afterRush,
      sessionReport,
      baseline,
      addToBatch,
      publishedToStaff,
      floor,
      disconnects,
      tallies: talliesOf(ctx, publishedToStaff),
      generatorPeakRssMb: generator.peakMb(),
    });
  } finally {
    generator.stop();
    closeStage(stage);
    await ctx.stop();
  }
};
