import { z } from 'zod';
import type { QueueEntry, QueueStatus, StudentSummary, VehicleType } from './queue';
import type { Role } from './roles';
import type { PickupSession } from './sessions';

/**
 * The dismissal's record (issue #26): every change of a pickup session is an
 * append-only event written in the same transaction as the change. These are
 * its kinds, its actors and the pure rules that turn events into a report.
 */

/** Every kind of event. Adding one is one line here (and its writer). */
export const DISMISSAL_EVENT_KINDS = [
  'session_started',
  'session_ended',
  'session_auto_ended',
  'vehicle_queued',
  'vehicle_requeued',
  'batch_created',
  'batched',
  'unbatched',
  'moved_to_overflow',
  'status_changed',
  'picked_up',
  'left',
  'removed',
  'student_released',
  'student_unreleased',
  'alert_raised',
  'alert_dismissed',
] as const;
export type DismissalEventKind = (typeof DISMISSAL_EVENT_KINDS)[number];

/** Who made a change: a signed-in user, a bus driver's link, or the schedule (auto-end). */
export type DismissalActor =
  | { id: number; username: string; role: Role }
  | { kind: 'driver link' }
  | { kind: 'schedule' };

export const actorOf = (user: { id: number; username: string; role: Role }): DismissalActor => ({
  id: user.id,
  username: user.username,
  role: user.role,
});
/** An actor as one line of a staff screen: the username, or the driver link / the schedule. */
export const actorName = (actor: DismissalActor): string =>
  'kind' in actor ? (actor.kind === 'driver link' ? 'Driver link' : 'Schedule') : actor.username;

export const DRIVER_LINK: DismissalActor = { kind: 'driver link' };
export const SCHEDULE: DismissalActor = { kind: 'schedule' };

/** A removal's reason (`DELETE /api/queue/{id}`): what the staff saw happen. */
export const REMOVAL_REASONS = ['picked_up', 'left', 'removed'] as const;
export type RemovalReason = (typeof REMOVAL_REASONS)[number];
export const removalSchema = z
  .object({
    reason: z
      .enum(REMOVAL_REASONS, { message: 'reason must be picked_up, left or removed' })
      .default('removed'),
  })
  .strict();

/** Days an event is kept when the school sets nothing. */
export const DEFAULT_RETENTION_DAYS = 400;
export const retentionDaysOf = (school: { retentionDays?: number | undefined } | undefined): number =>
  school?.retentionDays ?? DEFAULT_RETENTION_DAYS;

/** A vehicle's visit as an event names it, with its students as they were then. */
export interface EventEntry {
  id: string;
  vehicleNumber: string;
  vehicleType: VehicleType;
  students: StudentSummary[];
}

export const eventEntryOf = (
  entry: Pick<QueueEntry, 'id' | 'vehicleNumber' | 'vehicleType' | 'students'>,
) => ({
  id: entry.id,
  vehicleNumber: entry.vehicleNumber,
  vehicleType: entry.vehicleType,
  students: entry.students.map(({ id, firstName, lastName, grade, classroomId }) => ({
    id,
    firstName,
    lastName,
    grade,
    classroomId,
  })),
});

/** What an event says besides who, when and which session. */
export interface DismissalEventBody {
  kind: DismissalEventKind;
  /** The visits it concerns (several for a batch's completion); empty for session and alert events. */
  entries: EventEntry[];
  /** A released (or un-released) student. */
  student?: StudentSummary;
  batch?: { id: number; number: number };
  status?: { from: QueueStatus; to: QueueStatus };
  alert?: { id: number; type: string; location: string };
}

export interface DismissalEvent extends DismissalEventBody {
  /** Unique within the session, and in time order. */
  id: string;
  schoolId: number;
  sessionId: number;
  at: string;
  actor: DismissalActor;
}

/** Who and how long the record keeps a change: given to every store write of a dismissal. */
export interface Recording {
  actor: DismissalActor;
  retentionDays: number;
}

// ---------------------------------------------------------------------------
// Reports

export type ReportActor = { id: number; username: string; role: Role } | { kind: 'driver link' | 'schedule' };

export interface ReportStudent {
  id: number;
  firstName: string;
  lastName: string;
  grade: string;
  classroom: string | null;
}

export interface ReportPickup {
  entryId: string;
  vehicleNumber: string;
  vehicleType: VehicleType;
  /** null while the vehicle is still in the queue (a running session). */
  outcome: RemovalReason | null;
  queuedAt: string;
  queuedBy: ReportActor | null;
  releasedAt: string | null;
  releasedBy: ReportActor | null;
  pickedUpAt: string | null;
  completedBy: ReportActor | null;
  /** When it left the queue without a pickup (left or removed). */
  endedAt: string | null;
  batchNumber: number | null;
  students: ReportStudent[];
}

export interface ReportSummary {
  cars: number;
  buses: number;
  studentsPickedUp: number;
  medianWaitSeconds: number | null;
  p90WaitSeconds: number | null;
  batches: number;
  firstQueuedAt: string | null;
  lastPickedUpAt: string | null;
}

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

/** A session's report (`GET /api/sessions/{id}/report`). */
export interface SessionReport {
  session: PickupSession;
  summary: ReportSummary;
  pickups: ReportPickup[];
}

/** A school's dismissals over a date range, from the record (the district report). */
export interface DistrictDismissalRow {
  schoolId: number;
  schoolName: string;
  sessions: number;
  cars: number;
  studentsPickedUp: number;
  medianWaitSeconds: number | null;
  p90WaitSeconds: number | null;
}

/** The session list's short summary. */
export type SessionSummary = Pick<
  ReportSummary,
  'medianWaitSeconds' | 'p90WaitSeconds' | 'studentsPickedUp'
> & {
  cars: number;
};

export type SessionListItem = PickupSession & { summary: SessionSummary };

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

/** A student's pickup as their history lists it. */
export interface StudentPickup {
  sessionId: number;
  sessionName: string;
  date: string;
  entryId: string;
  vehicleNumber: string;
  vehicleType: VehicleType;
  releasedAt: string | null;
  releasedBy: ReportActor | null;
  pickedUpAt: string;
  completedBy: ReportActor | null;
}

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
