import type { StudentSummary } from './queue';
import type {
  DismissalActor,
  DismissalEvent,
  ReportActor,
  ReportPickup,
  ReportStudent,
  ReportSummary,
  SessionSummary,
} from './record';

/**
 * The dismissal's record turned into reports (pure rules): a session's
 * pickups from its events, their summary, the CSV rows, the charts' series.
 * Imported as `@curbside/domain/report`, so screens that show no report do
 * not load it.
 */

/** The value at quantile q (0..1) of sorted numbers, nearest rank; null when empty. */
export const quantile = (sorted: readonly number[], q: number): number | null => {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1] as number;
};

const seconds = (from: string, to: string) =>
  Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 1000));

/** Wait of a pickup: queued → picked up, in seconds. */
export const pickupWaitSeconds = (pickup: Pick<ReportPickup, 'queuedAt' | 'pickedUpAt'>): number | null =>
  pickup.pickedUpAt === null ? null : seconds(pickup.queuedAt, pickup.pickedUpAt);

const actorForReport = (actor: DismissalActor): ReportActor => actor;

/**
 * The session's pickups from its events (oldest first): one per visit, with
 * who queued it, who released its students, who completed it and how it ended.
 * `classroomName` names a classroom id.
 */
export const pickupsFromEvents = (
  events: readonly DismissalEvent[],
  classroomName: (id: number | null) => string | null = () => null,
): ReportPickup[] => {
  const pickups = new Map<string, ReportPickup>();
  const released = new Map<number, { at: string; by: ReportActor }>();
  const releasesOf = (students: readonly StudentSummary[]) => {
    let latest: { at: string; by: ReportActor } | null = null;
    for (const student of students) {
      const mark = released.get(student.id);
      if (mark && (!latest || mark.at > latest.at)) latest = mark;
    }
    return latest;
  };
  for (const event of events) {
    if (event.kind === 'student_released' && event.student) {
      released.set(event.student.id, { at: event.at, by: actorForReport(event.actor) });
      continue;
    }
    if (event.kind === 'student_unreleased' && event.student) {
      released.delete(event.student.id);
      continue;
    }
    for (const entry of event.entries) {
      let pickup = pickups.get(entry.id);
      if (!pickup) {
        pickup = {
          entryId: entry.id,
          vehicleNumber: entry.vehicleNumber,
          vehicleType: entry.vehicleType,
          outcome: null,
          queuedAt: event.at,
          queuedBy: null,
          releasedAt: null,
          releasedBy: null,
          pickedUpAt: null,
          completedBy: null,
          endedAt: null,
          batchNumber: null,
          students: [],
        };
        pickups.set(entry.id, pickup);
      }
      pickup.students = entry.students.map((student) => ({
        id: student.id,
        firstName: student.firstName,
        lastName: student.lastName,
        grade: student.grade,
        classroom: classroomName(student.classroomId),
      }));
      switch (event.kind) {
        case 'vehicle_queued':
        case 'vehicle_requeued':
          pickup.queuedAt = event.at;
          pickup.queuedBy = actorForReport(event.actor);
          break;
        case 'batch_created':
        case 'batched':
          pickup.batchNumber = event.batch?.number ?? pickup.batchNumber;
          break;
        case 'picked_up': {
          pickup.outcome = 'picked_up';
          pickup.pickedUpAt = event.at;
          pickup.completedBy = actorForReport(event.actor);
          const release = releasesOf(entry.students);
          if (release) {
            pickup.releasedAt = release.at;
            pickup.releasedBy = release.by;
          }
          break;
        }
        case 'left':
        case 'removed':
          pickup.outcome = event.kind;
          pickup.endedAt = event.at;
          break;
        case 'restored':
          // Undo: the visit is back in the line, as if it had not ended.
          pickup.outcome = null;
          pickup.endedAt = null;
          pickup.pickedUpAt = null;
          pickup.completedBy = null;
          break;
        default:
          break;
      }
    }
  }
  // Students released but whose vehicle had not been picked up yet still show who released them.
  for (const pickup of pickups.values()) {
    if (pickup.releasedAt !== null || pickup.outcome === 'picked_up') continue;
    const release = releasesOf(pickup.students.map((s) => ({ ...s, classroomId: null })));
    if (release && release.at >= pickup.queuedAt) {
      pickup.releasedAt = release.at;
      pickup.releasedBy = release.by;
    }
  }
  return [...pickups.values()].sort((a, b) =>
    a.queuedAt === b.queuedAt ? 0 : a.queuedAt < b.queuedAt ? -1 : 1,
  );
};

/** The report's summary of its pickups and events. */
export const summarize = (
  events: readonly DismissalEvent[],
  pickups: readonly ReportPickup[],
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

const actorLabel = (actor: ReportActor | null): string => {
  if (actor === null) return '';
  return 'kind' in actor ? actor.kind : `${actor.username} (${actor.role})`;
};

export const SESSION_REPORT_HEADER = [
  'Vehicle',
  'Type',
  'Outcome',
  'Student ID',
  'First Name',
  'Last Name',
  'Grade',
  'Classroom',
  'Queued At',
  'Queued By',
  'Released At',
  'Released By',
  'Picked Up At',
  'Completed By',
  'Wait Seconds',
] as const;

/** The report's CSV rows (header first): one row per student of each pickup, a vehicle without students on one row. */
export const sessionReportCsvRows = (
  pickups: readonly ReportPickup[],
): Array<Array<string | number | null>> => [
  [...SESSION_REPORT_HEADER],
  ...pickups.flatMap((pickup) => {
    const students: Array<ReportStudent | null> = pickup.students.length > 0 ? pickup.students : [null];
    return students.map((student) => [
      pickup.vehicleNumber,
      pickup.vehicleType,
      pickup.outcome ?? 'in_queue',
      student?.id ?? null,
      student?.firstName ?? null,
      student?.lastName ?? null,
      student?.grade ?? null,
      student?.classroom ?? null,
      pickup.queuedAt,
      actorLabel(pickup.queuedBy),
      pickup.releasedAt,
      actorLabel(pickup.releasedBy),
      pickup.pickedUpAt,
      actorLabel(pickup.completedBy),
      pickupWaitSeconds(pickup),
    ]);
  }),
];

/** Cars that reached the front per minute (picked up), from the first to the last minute with a pickup. */
export const pickupsPerMinute = (pickups: readonly Pick<ReportPickup, 'pickedUpAt'>[]) => {
  const minutes = new Map<number, number>();
  for (const pickup of pickups) {
    if (pickup.pickedUpAt === null) continue;
    const minute = Math.floor(Date.parse(pickup.pickedUpAt) / 60_000);
    minutes.set(minute, (minutes.get(minute) ?? 0) + 1);
  }
  if (minutes.size === 0) return [];
  const first = Math.min(...minutes.keys());
  const last = Math.max(...minutes.keys());
  return Array.from({ length: last - first + 1 }, (_, i) => ({
    minute: new Date((first + i) * 60_000).toISOString(),
    cars: minutes.get(first + i) ?? 0,
  }));
};

/** How many pickups waited 0–1, 1–2, … minutes (the last bucket open-ended at `cap` minutes). */
export const waitDistribution = (
  pickups: readonly Pick<ReportPickup, 'queuedAt' | 'pickedUpAt'>[],
  cap = 15,
) => {
  const buckets = Array.from({ length: cap + 1 }, (_, i) => ({
    label: i === cap ? `${cap}+ min` : `${i}–${i + 1} min`,
    cars: 0,
  }));
  for (const pickup of pickups) {
    const wait = pickupWaitSeconds(pickup);
    if (wait === null) continue;
    const bucket = buckets[Math.min(cap, Math.floor(wait / 60))];
    if (bucket) bucket.cars += 1;
  }
  return buckets;
};
