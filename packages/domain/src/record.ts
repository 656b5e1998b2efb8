import * as z from 'zod';
import type { QueueEntry, QueueStatus, StudentSummary, VehicleType } from './queue';
import type { Role } from './roles';
import type { PickupSession } from './session-schemas';
import type { ReleasedWay } from './way-calls';

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
  'restored',
  'student_released',
  'student_unreleased',
  // A release by way home (issue 52): the walkers, a bus's riders or a program's children of some classrooms.
  'students_released',
  'alert_raised',
  'alert_acknowledged',
  'alert_dismissed',
] as const;
export type DismissalEventKind = (typeof DISMISSAL_EVENT_KINDS)[number];

/**
 * Who made a change: a signed-in user (with their name as it was; events
 * recorded before names were kept have none), a bus driver's link, or the
 * schedule (auto-end).
 */
export type DismissalActor =
  | { id: number; username: string; role: Role; name?: string }
  | { kind: 'driver link' }
  | { kind: 'schedule' };

export const actorOf = (user: {
  id: number;
  username: string;
  role: Role;
  name?: string | undefined;
}): DismissalActor => ({
  id: user.id,
  username: user.username,
  role: user.role,
  ...(user.name ? { name: user.name } : {}),
});
/** An actor as one line of a staff screen: the username, or the driver link / the schedule. */
export const actorName = (actor: DismissalActor): string =>
  'kind' in actor ? (actor.kind === 'driver link' ? 'Driver link' : 'Schedule') : actor.username;

export const DRIVER_LINK: DismissalActor = { kind: 'driver link' };
export const SCHEDULE: DismissalActor = { kind: 'schedule' };

/** A removal's reason (`DELETE /api/queue/{id}`): what the staff saw happen. */
export const REMOVAL_REASONS = ['picked_up', 'left', 'removed'] as const;
export type RemovalReason = (typeof REMOVAL_REASONS)[number];
/**
 * A completion's "Complete anyway" (issue 50): completing a car or a batch
 * with a child no teacher released answers 409 naming them, unless the body
 * says the staff confirmed it.
 */
export const confirmUnreleasedField = z
  .boolean({ message: 'confirmUnreleased must be true or false' })
  .optional();
export const removalSchema = z
  .object({
    reason: z
      .enum(REMOVAL_REASONS, { message: 'reason must be picked_up, left or removed' })
      .default('removed'),
    confirmUnreleased: confirmUnreleasedField,
  })
  .strict();

/** Days an event is kept when the school sets nothing. */
export const DEFAULT_RETENTION_DAYS = 400;
export const retentionDaysOf = (school: { retentionDays?: number | undefined } | undefined): number =>
  school?.retentionDays ?? DEFAULT_RETENTION_DAYS;

/** A teacher's release of a child in a session (its mark): when, and by whom. */
export interface ReleaseMark {
  releasedAt: string;
  /** Absent on marks made before the record. */
  releasedBy: DismissalActor | null;
}

/**
 * How a child left with a completed visit (issue 50), recorded per child on
 * its `picked_up` event: released by a teacher (when, by whom), or, with
 * `releasedAt` null, completed without a teacher's release (by the event's
 * actor, who confirmed it). Reports, their CSV and the child's history all
 * read this one fact.
 */
export interface ChildRelease {
  studentId: number;
  releasedAt: string | null;
  releasedBy: DismissalActor | null;
}

/** A vehicle's visit as an event names it, with its students as they were then. */
export interface EventEntry {
  id: string;
  vehicleNumber: string;
  vehicleType: VehicleType;
  students: StudentSummary[];
  /** On a `picked_up` event: each child's release at the completion (absent on events before issue 50). */
  releases?: ChildRelease[];
  /** On a `vehicle_queued` event: the children it was not called for that day, and why (issue 52). */
  notCalled?: Array<StudentSummary & { reason: string }>;
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

/** Each child's release when a visit is completed, from the session's release marks (student id → mark). */
export const releasesAtCompletion = (
  entry: Pick<QueueEntry, 'students'>,
  marks: ReadonlyMap<number, ReleaseMark>,
): ChildRelease[] =>
  entry.students.map((student) => {
    const mark = marks.get(student.id);
    return {
      studentId: student.id,
      releasedAt: mark?.releasedAt ?? null,
      releasedBy: mark?.releasedBy ?? null,
    };
  });

/** A completed visit as its `picked_up` event names it: with each child's release. */
export const completedEventEntry = (
  entry: Pick<QueueEntry, 'id' | 'vehicleNumber' | 'vehicleType' | 'students'>,
  marks: ReadonlyMap<number, ReleaseMark>,
): EventEntry => ({ ...eventEntryOf(entry), releases: releasesAtCompletion(entry, marks) });

/** What an event says besides who, when and which session. */
export interface DismissalEventBody {
  kind: DismissalEventKind;
  /** The visits it concerns (several for a batch's completion); empty for session and alert events. */
  entries: EventEntry[];
  /** A released (or un-released) student. */
  student?: StudentSummary;
  /** `students_released`: the students one press released, and to what (issue 52). */
  students?: StudentSummary[];
  way?: ReleasedWay;
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

/** An actor in a report: a user with their name (as recorded, else as the school knows them now). */
export type ReportActor =
  | { id: number; username: string; role: Role; name?: string }
  | { kind: 'driver link' | 'schedule' };

export interface ReportStudent {
  id: number;
  firstName: string;
  lastName: string;
  grade: string;
  classroom: string | null;
  /**
   * This child's release for this visit (issue 50): for a completed visit,
   * as its completion recorded it; for a visit that left or is still queued,
   * the release the session held when it ended (or now). null: not released.
   */
  releasedAt: string | null;
  releasedBy: ReportActor | null;
  /** The visit was completed while this child was not released: "completed without a teacher's release" (by `completedBy`). */
  completedWithoutRelease: boolean;
}

/**
 * How a visit ended: picked up, left, removed; still in the queue when the
 * session ended (`left_in_queue_at_end`); null while it is in the queue of a
 * running session.
 */
export type ReportOutcome = RemovalReason | 'left_in_queue_at_end';

export interface ReportPickup {
  entryId: string;
  vehicleNumber: string;
  vehicleType: VehicleType;
  outcome: ReportOutcome | null;
  queuedAt: string;
  queuedBy: ReportActor | null;
  pickedUpAt: string | null;
  completedBy: ReportActor | null;
  /** When it left the queue without a pickup (left or removed). */
  endedAt: string | null;
  batchNumber: number | null;
  students: ReportStudent[];
}

/** Students released in a session by way home (issue 52): each counted once, by how they went. */
export interface ReleasesByWay {
  car: number;
  bus: number;
  walker: number;
  program: number;
}

/** A release by way home as a report shows it (walkers, a bus's riders, a program's children). */
export interface ReportWayRelease {
  at: string;
  by: ReportActor | null;
  way: ReleasedWay;
  students: Array<Pick<ReportStudent, 'id' | 'firstName' | 'lastName' | 'grade' | 'classroom'>>;
}

export interface ReportSummary {
  cars: number;
  buses: number;
  studentsPickedUp: number;
  /** Released students by way home (issue 52). */
  releasesByWay: ReleasesByWay;
  medianWaitSeconds: number | null;
  p90WaitSeconds: number | null;
  batches: number;
  firstQueuedAt: string | null;
  lastPickedUpAt: string | null;
}

/** A session's report (`GET /api/sessions/{id}/report`). */
export interface SessionReport {
  session: PickupSession;
  summary: ReportSummary;
  pickups: ReportPickup[];
  /** The releases by way home of students in no visit of the session: walkers, programs (issue 52). */
  wayReleases: ReportWayRelease[];
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
  /** Completed while not released by a teacher ("completed without a teacher's release", by `completedBy`). */
  completedWithoutRelease: boolean;
  pickedUpAt: string;
  completedBy: ReportActor | null;
  /** The child's way home that day as the office reads it (`Car rider`, `Car 112`, `Bus B3`…; issue 52). */
  wayHome?: string;
}
