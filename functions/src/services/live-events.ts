import { type CarLineEvent, channels, type LiveEvent } from '@curbside/api';
import type { QueueEntry } from '@curbside/domain';
import { eventSequence, meter, type SampleChange, type SchoolConnection, students } from '@curbside/store';
import { connectionsDb, db } from '../lib/context';
import { besideTheAnswer } from '../lib/deferred';
import { live } from '../lib/live';
import { log } from '../lib/log';
import { tellDisplays } from './display';
import { lineUpdateDue, type ParentsConcern, parentsConcernOf, tellParents } from './parent-events';
import { inChannelOf, publishToChannel, schoolHearing } from './publish';

export { publishToChannel };

/** Tells the school's signed-in staff about a committed change outside any session (no sequence number). */
export const publishToStaff = (schoolId: number, event: LiveEvent) =>
  publishToChannel(channels.staff(schoolId), event);

/**
 * Tells the school's staff screens about a change of one student outside the
 * car line's sequence (a family's authorized adults, issue 50), routed as the
 * car-line events are: the screens following the whole line, and those
 * subscribed to the student's classroom (no sequence number: it is no change
 * of the line).
 */
export const publishAboutStudent = (schoolId: number, classroomId: number | null, event: LiveEvent) =>
  routeToStaff(schoolId, event, classroomId === null ? [] : [classroomId]);

/**
 * Tells the school's signed-in staff about a committed change of a session,
 * numbered in the session's event sequence (one small write per event), so a
 * screen that sees a number skipped knows it missed one. The number is taken
 * after the change committed: a refused change never uses one. Should the
 * number not be had, the event still goes out, without one. The event may be
 * given as a promise (of reads it still needs); the number is taken meanwhile.
 * A change whose transaction refuses nothing but a retry's key (a teacher's
 * release) may hand over its commit as that promise, so the number and the
 * school's connections are read beside the transaction (ADR 0027, h54ze);
 * should it not commit, nothing is told and its number stays unused (the
 * line's screens see a gap and read the line again).
 * The parents of the children it is about are told too (`parents.ts`).
 *
 * Staff connections get it by topic (issue 31, ADR 0018): those following the
 * whole line numbered, those subscribed to classrooms only when it concerns
 * one of them (the students of its visits), without a number; an alert
 * reaches every staff connection. `classroomIds`: the classrooms it concerns,
 * when the caller knows them and the event does not say (a release).
 *
 * In a request whose answer is kept for its Idempotency-Key, it goes out
 * beside that keeping (`besideTheAnswer`, ADR 0027).
 *
 * `sample`: the pickups the change completed (or the pickup its Undo took
 * back), kept for the parents' wait estimate by the same write that takes the
 * number (`eventSequence.next`, ADR 0027 "The parent's poll in 2 calls").
 */
export const publishToSession = (
  schoolId: number,
  sessionId: number,
  event: CarLineEvent | Promise<CarLineEvent>,
  classroomIds?: readonly (number | null)[],
  sample?: SampleChange,
  parents?: ParentsConcern,
): Promise<void> => besideTheAnswer(publishNow(schoolId, sessionId, event, classroomIds, sample, parents));

/** Whose parents a change of one entry's status can tell (`parents` of `publishToSession` for an event still read). */
export const parentsOfStatusChange = (entry: QueueEntry | null): ParentsConcern =>
  parentsConcernOf({ type: 'QUEUE_STATUS_UPDATED', data: { entry, batch: null } });

/**
 * The parents' pages a change's fan-out reads (h54zf): those of the children
 * it concerns, unless it may tell every waiting child's parents that the line
 * moved (not within the interval), or it is not known yet (an event still
 * being read whose caller did not say): then every row (undefined).
 */
const childrenHearing = (sessionId: number, concern: ParentsConcern | undefined) =>
  concern && !(concern.lineMoved && lineUpdateDue(sessionId)) ? concern.children : undefined;

/** Whether the rows read for `children` hold the pages of every child the event tells their parents of. */
const covers = (children: readonly number[], concern: ParentsConcern) => {
  const read = new Set(children);
  return concern.children.every((studentId) => read.has(studentId));
};

/** A change's completed visits as the wait estimate's sample keeps them. */
export const pickedUp = (entries: readonly QueueEntry[]): SampleChange => ({
  pickedUp: entries.flatMap(({ id, vehicleType, exitTime }) =>
    exitTime === null ? [] : [{ id, vehicleType, exitTime }],
  ),
});

const publishNow = async (
  schoolId: number,
  sessionId: number,
  event: CarLineEvent | Promise<CarLineEvent>,
  classroomIds?: readonly (number | null)[],
  sample?: SampleChange,
  parents?: ParentsConcern,
): Promise<void> => {
  const children = childrenHearing(sessionId, event instanceof Promise ? parents : parentsConcernOf(event));
  // The number is taken, and the school's connections read, while the event's last reads (if any) are under way.
  const hearing = schoolHearing(schoolId, children);
  const [seq, ready] = await Promise.all([
    eventSequence.next({ live: connectionsDb(), data: db }, sessionId, sample).catch((error: Error) => {
      log('warn', 'live event not numbered', { error: error.message });
      return undefined;
    }),
    // A change handed over before its commit (a release) that did not commit: nothing to tell.
    Promise.resolve(event).catch(() => undefined),
    hearing,
  ]);
  if (ready === undefined) {
    if (seq !== undefined)
      log('info', 'live event not sent: its change did not commit (or its reads failed)', { sessionId, seq });
    return;
  }
  // A caller's word that the event did not keep: every parent's page, read again (not expected).
  const parentsHearing =
    children === undefined || covers(children, parentsConcernOf(ready)) ? hearing : schoolHearing(schoolId);
  await Promise.all([
    routeToStaff(
      schoolId,
      { ...ready, sessionId, ...(seq === undefined ? {} : { seq }) },
      await concernOf(schoolId, ready, classroomIds),
      hearing,
    ),
    tellParents(
      schoolId,
      sessionId,
      ready,
      parentsHearing,
      parentsHearing !== hearing || children === undefined,
    ),
    ...(DISPLAY_CHANGES.has(ready.type) ? [tellDisplays(schoolId, hearing)] : []),
  ]);
};

/**
 * A change outside any session's sequence that concerns some classrooms (a
 * child's way home, issue 51): to the school's whole-line staff connections
 * and to those subscribed to the concerned classrooms (none: the whole line
 * only), unnumbered, routed as `publishToSession` routes car-line events.
 */
export const publishToClassrooms = (
  schoolId: number,
  event: LiveEvent,
  classroomIds: readonly (number | null)[],
) => routeToStaff(schoolId, event, [...new Set(classroomIds.filter((id): id is number => id !== null))]);

/** The line's changes that can change the hallway display's board (issue 32; a release: issue 50). */
const DISPLAY_CHANGES: ReadonlySet<string> = new Set([
  'QUEUE_STATUS_UPDATED',
  'VEHICLE_REMOVED',
  'VEHICLES_REMOVED_FROM_QUEUE',
  'VEHICLE_RESTORED',
  'STUDENT_STATUS_UPDATE',
  'STUDENTS_RELEASED',
]);

/** Every staff connection: an alert. Otherwise the classrooms of the students the event is about. */
type Concern = 'all' | number[];

const classroomsOfStudents = (list: readonly { classroomId: number | null }[]) =>
  list.map((student) => student.classroomId);

/**
 * The classrooms a car-line event concerns, from its records: the students
 * of its visit(s); a release names only the student (one read when the caller
 * did not say). A batch's own change without a visit (a new, empty batch)
 * concerns no classroom: its visits' events follow.
 */
const concernOf = async (
  schoolId: number,
  event: CarLineEvent,
  given: readonly (number | null)[] | undefined,
): Promise<Concern> => {
  let ids: readonly (number | null)[];
  switch (event.type) {
    case 'VEHICLE_QUEUED':
    case 'VEHICLE_REMOVED':
    case 'VEHICLE_RESTORED':
      ids = classroomsOfStudents(event.data.entry.students);
      break;
    case 'QUEUE_STATUS_UPDATED':
      ids = classroomsOfStudents(event.data.entry?.students ?? []);
      break;
    case 'VEHICLES_REMOVED_FROM_QUEUE':
      ids = event.data.entries.flatMap((entry) => classroomsOfStudents(entry.students));
      break;
    case 'STUDENTS_RELEASED':
      ids = given ?? classroomsOfStudents(event.data.students);
      break;
    case 'STUDENT_STATUS_UPDATE':
      ids =
        given ??
        (await students.getMany(db, schoolId, [event.data.studentId]).then(classroomsOfStudents, () => []));
      break;
    default:
      return 'all';
  }
  return [...new Set(ids.filter((id): id is number => id !== null))];
};

/**
 * Sends a session's event to the school's staff connections by topic: the
 * whole-line channel's members get it as it is (numbered); the members of the
 * concerned classrooms' channels (or, for an alert, every narrowed
 * connection) get it once each without its number: they see a part of the
 * sequence, so a number would read as a gap. The connections are the school's
 * (`hearing`: one Query of its partition, read here when not given), matched
 * by channel; never a Scan. Counted once as an event published to the
 * school's staff.
 */
const routeToStaff = async (
  schoolId: number,
  event: LiveEvent,
  concern: Concern,
  hearing: Promise<SchoolConnection[]> = schoolHearing(schoolId),
): Promise<void> => {
  try {
    meter.add(`live.published.${channels.staff(schoolId)}`);
    const sent = { ...event, sentAt: Date.now() };
    const narrowing = new Set(
      concern === 'all'
        ? [channels.narrowed(schoolId)]
        : concern.map((classroomId) => channels.classroom(schoolId, classroomId)),
    );
    const school = await hearing;
    const line = inChannelOf(school, channels.line(schoolId));
    const whole = new Set(line);
    const narrowed = school
      .filter(
        ({ connectionId, channels: joined }) =>
          !whole.has(connectionId) && joined.some((channel) => narrowing.has(channel)),
      )
      .map((connection) => connection.connectionId);
    const { seq: _numbered, ...unnumbered } = sent;
    await Promise.all([
      live().send(line, sent, channels.line(schoolId)),
      narrowed.length > 0 ? live().send(narrowed, unnumbered as LiveEvent) : undefined,
    ]);
  } catch (error) {
    log('warn', 'live event not published', { type: event.type, error: (error as Error).message });
  }
};
