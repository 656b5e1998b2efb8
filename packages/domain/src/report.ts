import { localDateTime } from './district-report';
import type { StudentSummary } from './queue';
import type {
  ChildRelease,
  DismissalActor,
  DismissalEvent,
  ReleasesByWay,
  ReportActor,
  ReportPickup,
  ReportStudent,
  ReportSummary,
  ReportWayRelease,
  SessionSummary,
} from './record';
import type { ReleasedWay } from './way-calls';

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

/** A release as a report names it. */
interface Release {
  at: string;
  by: ReportActor | null;
}

/** The releases of some children as they stand in `released` (student id → release). */
const releasesOf = (students: readonly { id: number }[], released: ReadonlyMap<number, Release>) => {
  const marks = new Map<number, Release>();
  for (const student of students) {
    const mark = released.get(student.id);
    if (mark) marks.set(student.id, mark);
  }
  return marks;
};

/** The children's releases a completion recorded (issue 50): only the released ones. */
const releasesRecorded = (facts: readonly ChildRelease[]) =>
  new Map(
    facts.flatMap(
      (fact): Array<[number, Release]> =>
        fact.releasedAt === null
          ? []
          : [
              [
                fact.studentId,
                { at: fact.releasedAt, by: fact.releasedBy && actorForReport(fact.releasedBy) },
              ],
            ],
    ),
  );

/**
 * The session's pickups from its events (oldest first): one per visit, with
 * who queued it, who completed it, how it ended, and for each child who
 * released them. A completed visit's children are as its completion recorded
 * them (`releases` of its `picked_up` event; events written before that
 * record take the session's releases at that moment): released, or completed
 * without a teacher's release. A visit that left, was removed or is still
 * queued shows the releases the session held when it ended (or now), never one
 * made on a later visit. Visits still queued when the session ended left in
 * the queue at its end. `classroomName` names a classroom id. A morning
 * drop-off (`releases` false) releases nobody: no child is "completed without
 * a teacher's release" there.
 */
export const pickupsFromEvents = (
  events: readonly DismissalEvent[],
  classroomName: (id: number | null) => string | null = () => null,
  releases = true,
): ReportPickup[] => {
  const pickups = new Map<string, ReportPickup>();
  const students = new Map<string, StudentSummary[]>();
  /** Each ended visit's children's releases as they stood when it ended. */
  const atEnd = new Map<string, Map<number, Release>>();
  const released = new Map<number, Release>();
  let sessionEndedAt: string | null = null;
  for (const event of events) {
    if (event.kind === 'student_released' && event.student) {
      released.set(event.student.id, { at: event.at, by: actorForReport(event.actor) });
      continue;
    }
    if (event.kind === 'students_released') {
      for (const student of event.students ?? [])
        released.set(student.id, { at: event.at, by: actorForReport(event.actor) });
      continue;
    }
    if (event.kind === 'student_unreleased' && event.student) {
      released.delete(event.student.id);
      continue;
    }
    if (event.kind === 'session_ended' || event.kind === 'session_auto_ended') {
      sessionEndedAt ??= event.at;
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
          pickedUpAt: null,
          completedBy: null,
          endedAt: null,
          batchNumber: null,
          students: [],
        };
        pickups.set(entry.id, pickup);
      }
      students.set(entry.id, entry.students);
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
        case 'picked_up':
          pickup.outcome = 'picked_up';
          pickup.pickedUpAt = event.at;
          pickup.completedBy = actorForReport(event.actor);
          atEnd.set(
            entry.id,
            entry.releases ? releasesRecorded(entry.releases) : releasesOf(entry.students, released),
          );
          break;
        case 'left':
        case 'removed':
          pickup.outcome = event.kind;
          pickup.endedAt = event.at;
          atEnd.set(entry.id, releasesOf(entry.students, released));
          break;
        case 'restored':
          // Undo: the visit is back in the line, as if it had not ended.
          pickup.outcome = null;
          pickup.endedAt = null;
          pickup.pickedUpAt = null;
          pickup.completedBy = null;
          atEnd.delete(entry.id);
          break;
        default:
          break;
      }
    }
  }
  for (const pickup of pickups.values()) {
    if (pickup.outcome === null && sessionEndedAt !== null) {
      pickup.outcome = 'left_in_queue_at_end';
      pickup.endedAt = sessionEndedAt;
    }
    const riders = students.get(pickup.entryId) ?? [];
    const marks = atEnd.get(pickup.entryId) ?? releasesOf(riders, released);
    pickup.students = riders.map((student) => {
      const mark = marks.get(student.id);
      return {
        id: student.id,
        firstName: student.firstName,
        lastName: student.lastName,
        grade: student.grade,
        classroom: classroomName(student.classroomId),
        releasedAt: mark?.at ?? null,
        releasedBy: mark?.by ?? null,
        completedWithoutRelease: releases && pickup.outcome === 'picked_up' && !mark,
      };
    });
  }
  return [...pickups.values()].sort((a, b) =>
    a.queuedAt === b.queuedAt ? 0 : a.queuedAt < b.queuedAt ? -1 : 1,
  );
};

/**
 * The releases by way home (issue 52) of students in no visit of the session:
 * walkers, programs' children, a bus's riders whose bus never joined the
 * queue (a bus's released riders are otherwise its visit's children). Oldest
 * first, each student once (their first release).
 */
export const wayReleasesFromEvents = (
  events: readonly DismissalEvent[],
  pickups: readonly ReportPickup[],
  classroomName: (id: number | null) => string | null = () => null,
): ReportWayRelease[] => {
  const inVisits = new Set(pickups.flatMap((pickup) => pickup.students.map((student) => student.id)));
  const seen = new Set<number>();
  const list: ReportWayRelease[] = [];
  for (const event of events) {
    if (event.kind !== 'students_released' || !event.way) continue;
    const students = (event.students ?? []).filter((student) => {
      if (inVisits.has(student.id) || seen.has(student.id)) return false;
      seen.add(student.id);
      return true;
    });
    if (students.length === 0) continue;
    list.push({
      at: event.at,
      by: actorForReport(event.actor),
      way: event.way,
      students: students.map((student) => ({
        id: student.id,
        firstName: student.firstName,
        lastName: student.lastName,
        grade: student.grade,
        classroom: classroomName(student.classroomId),
      })),
    });
  }
  return list;
};

/**
 * Released students by way home: a child released while in a visit counts by
 * the visit's vehicle (car or bus); one released by way home outside any
 * visit, by that way. Each child once per way.
 */
export const releasesByWay = (
  pickups: readonly ReportPickup[],
  wayReleases: readonly ReportWayRelease[],
): ReleasesByWay => {
  const sets = {
    car: new Set<number>(),
    bus: new Set<number>(),
    walker: new Set<number>(),
    program: new Set<number>(),
  };
  for (const pickup of pickups)
    for (const student of pickup.students)
      if (student.releasedAt !== null) sets[pickup.vehicleType].add(student.id);
  for (const release of wayReleases)
    for (const student of release.students) sets[release.way.mode].add(student.id);
  return {
    car: sets.car.size,
    bus: sets.bus.size,
    walker: sets.walker.size,
    program: sets.program.size,
  };
};

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

/** The user actors among `actors` that were recorded without a name (before names were kept): their ids. */
export const unnamedActorIds = (actors: Iterable<ReportActor | null>): number[] => {
  const ids = new Set<number>();
  for (const actor of actors) if (actor && !('kind' in actor) && !actor.name) ids.add(actor.id);
  return [...ids];
};

/** An actor with their name: as recorded, else from `names` (user id → name), else as it was. */
export const namedActor = <A extends ReportActor | null>(actor: A, names: ReadonlyMap<number, string>): A => {
  if (!actor || 'kind' in actor || actor.name) return actor;
  const name = names.get(actor.id);
  return name ? { ...actor, name } : actor;
};

/** Every actor a pickup names. */
export const pickupActors = (pickup: ReportPickup): Array<ReportActor | null> => [
  pickup.queuedBy,
  pickup.completedBy,
  ...pickup.students.map((student) => student.releasedBy),
];

/** A pickup whose actors carry their names (`namedActor`). */
export const withActorNames = (pickup: ReportPickup, names: ReadonlyMap<number, string>): ReportPickup => ({
  ...pickup,
  queuedBy: namedActor(pickup.queuedBy, names),
  completedBy: namedActor(pickup.completedBy, names),
  students: pickup.students.map((student) => ({
    ...student,
    releasedBy: namedActor(student.releasedBy, names),
  })),
});

/** A person as a report names them: their name (else their username), or the driver link / the schedule. */
export const actorDisplayName = (actor: ReportActor): string => {
  if ('kind' in actor) return actor.kind === 'driver link' ? 'Driver link' : 'Schedule';
  return actor.name || actor.username;
};

const actorLabel = (actor: ReportActor | null): string =>
  actor === null
    ? ''
    : 'kind' in actor
      ? actorDisplayName(actor)
      : `${actorDisplayName(actor)} (${actor.role.replaceAll('_', ' ')})`;

/** What the report and its CSV say of a child completed while not released. */
export const COMPLETED_WITHOUT_RELEASE = "Completed without a teacher's release";

/** The CSV's columns; the times are the school's (`timeZone`), named in their headers. */
export const sessionReportHeader = (timeZone: string) => [
  'Vehicle',
  'Type',
  'Outcome',
  'Student ID',
  'First Name',
  'Last Name',
  'Grade',
  'Classroom',
  `Queued At (${timeZone})`,
  'Queued By',
  `Released At (${timeZone})`,
  'Released By',
  `Picked Up At (${timeZone})`,
  'Completed By',
  'Wait Seconds',
  'Way Home',
];

/** A way as the report's Way Home column names it: `Car`, `Bus B3`, `Walker`, `Kids Club`. */
const wayHomeLabel = (way: ReleasedWay | { mode: 'car' | 'bus'; name: string }) =>
  way.mode === 'walker' ? 'Walker' : way.name;

/** The Releases by way home lines of a report (issue 52): `Car riders 12`, … */
export const RELEASES_BY_WAY_LABELS: ReadonlyArray<[keyof ReleasesByWay, string]> = [
  ['car', 'Car riders'],
  ['bus', 'Bus riders'],
  ['walker', 'Walkers'],
  ['program', 'Programs'],
];

/**
 * The report's CSV rows (header first): one row per student of each pickup
 * (with that child's own release, or "Completed without a teacher's
 * release"), a vehicle without students on one row; then one row per student
 * released by way home outside any visit (walkers, programs: outcome
 * `released`); each row names the way home (`Way Home`), so a spreadsheet
 * counts the releases by way home. Times in `timeZone` (`2026-11-24 15:02:07`).
 */
export const sessionReportCsvRows = (
  pickups: readonly ReportPickup[],
  timeZone: string,
  wayReleases: readonly ReportWayRelease[] = [],
): Array<Array<string | number | null>> => {
  const local = (iso: string | null) =>
    iso === null ? null : localDateTime(iso, timeZone, { seconds: true, zoneName: false });
  return [
    sessionReportHeader(timeZone),
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
        local(pickup.queuedAt),
        actorLabel(pickup.queuedBy),
        local(student?.releasedAt ?? null),
        student?.completedWithoutRelease
          ? COMPLETED_WITHOUT_RELEASE
          : actorLabel(student?.releasedBy ?? null),
        local(pickup.pickedUpAt),
        actorLabel(pickup.completedBy),
        pickupWaitSeconds(pickup),
        wayHomeLabel({
          mode: pickup.vehicleType,
          name: pickup.vehicleType === 'bus' ? `Bus B${pickup.vehicleNumber}` : 'Car',
        }),
      ]);
    }),
    ...wayReleases.flatMap((release) =>
      release.students.map((student) => [
        release.way.mode === 'bus' ? release.way.name.replace(/^Bus B/, '') : null,
        release.way.mode,
        'released',
        student.id,
        student.firstName,
        student.lastName,
        student.grade,
        student.classroom,
        null,
        null,
        local(release.at),
        actorLabel(release.by),
        null,
        null,
        null,
        wayHomeLabel(release.way),
      ]),
    ),
  ];
};

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
