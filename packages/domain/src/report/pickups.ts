import type { StudentSummary } from '../queue';
import type {
  ChildRelease,
  DismissalActor,
  DismissalEvent,
  ReleasesByWay,
  ReportActor,
  ReportPickup,
  ReportWayRelease,
} from '../record';

/** A session's pickups and its releases by way home, from its events (the record). */

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
