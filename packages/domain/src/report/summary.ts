import type {
  DismissalEvent,
  ReportPickup,
  ReportSummary,
  ReportWayRelease,
  SessionSummary,
} from '../record';
import { releasesByWay } from './pickups';
import { pickupWaitSeconds, quantile } from './waits';
/** The report's summary of its pickups and events, and the session list's figures. */

/** The report's summary of its pickups and events. */
export const summarize = (
  events: readonly DismissalEvent[],
  pickups: readonly ReportPickup[],
  wayReleases: readonly ReportWayRelease[] = [],
): ReportSummary => {
  const waits = pickups
    .map(pickupWaitSeconds)
    .filter((wait): wait is number => wait !== null)
    .sort((a, b) => a - b);
  const done = pickups.filter((pickup) => pickup.outcome === 'picked_up');
  const batchIds = new Set<number>();
  for (const event of events)
    if (event.batch && (event.kind === 'batch_created' || event.kind === 'batched'))
      batchIds.add(event.batch.id);
  const pickedUpTimes = done.map((pickup) => pickup.pickedUpAt as string).sort();
  return {
    cars: pickups.filter((pickup) => pickup.vehicleType === 'car').length,
    buses: pickups.filter((pickup) => pickup.vehicleType === 'bus').length,
    studentsPickedUp: new Set(done.flatMap((pickup) => pickup.students.map((student) => student.id))).size,
    releasesByWay: releasesByWay(pickups, wayReleases),
    medianWaitSeconds: quantile(waits, 0.5),
    p90WaitSeconds: quantile(waits, 0.9),
    batches: batchIds.size,
    firstQueuedAt: pickups[0]?.queuedAt ?? null,
    lastPickedUpAt: pickedUpTimes.at(-1) ?? null,
  };
};

export const sessionSummaryOf = (summary: ReportSummary): SessionSummary => ({
  cars: summary.cars + summary.buses,
  studentsPickedUp: summary.studentsPickedUp,
  medianWaitSeconds: summary.medianWaitSeconds,
  p90WaitSeconds: summary.p90WaitSeconds,
});
