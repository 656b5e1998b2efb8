import {
  actorName,
  type Classroom,
  ConflictError,
  type DayWay,
  isSessionRunning,
  NotFoundError,
  type PlanEntry,
  type QueueEntry,
  type Recording,
  type ReleaseMark,
  readyOrder,
  type Student,
  type StudentMark,
  type StudentSummary,
  type TeacherStudent,
  type User,
  type Vehicle,
} from '@curbside/domain';
import {
  classrooms,
  type KeyedAnswer,
  keyedReads,
  type Marks,
  queue,
  releases,
  students,
  vehicles,
} from '@curbside/store';
import { db } from '../lib/context';
import { answerInTheChange } from '../lib/idempotency';
import { countMetric, log } from '../lib/log';
import { publishToSession } from './live-events';
import { parentsConcernOf } from './parent-events';
import { recordingBy } from './record';
import { schoolToday } from './school-clock';
import { activeSessionOf, assertSessionOfSchool, knownSessionRead, sessionOfSchool } from './scope';
import { ownSchoolId } from './tenancy';
import { waysHomeOn } from './ways-home';

/** Without a session: nothing queued, released or picked up. */
const NO_MARKS: Marks = { released: new Map(), pickedUp: new Map(), releasedBy: new Map() };

/**
 * The students the view is about: those of the given classrooms (one Query
 * each), or every student of the school when none are given; and the
 * classrooms whose release marks to read.
 */
const rosterOf = async (schoolId: number, rooms: readonly Classroom[], classroomIds?: readonly number[]) => {
  if (classroomIds === undefined) {
    return {
      roster: await students.listBySchool(db, schoolId),
      markRooms: [...rooms.map((room) => room.id), null],
    };
  }
  const wanted = rooms.filter((room) => classroomIds.includes(room.id));
  const pages = await Promise.all(wanted.map((room) => students.listByClassroom(db, schoolId, room.id)));
  return { roster: pages.flat(), markRooms: wanted.map((room) => room.id) };
};

/** The registered vehicle that picks a student up. */
type Ride = NonNullable<TeacherStudent['vehicle']>;

const rideOf = (vehicle: Vehicle): Ride => ({
  type: vehicle.type,
  number: vehicle.number,
  parentName: vehicle.parentName,
});

/**
 * Each student's ride: the bus or the car their way home today names (issue
 * 52), else the first active vehicle (by id) that lists them. One Query of
 * the school's vehicles, so a roster change is seen at once.
 */
const ridesOf = async (schoolId: number) => {
  const registered = new Map<number, Ride>();
  const fleet = (await vehicles.listBySchool(db, schoolId)).sort((a, b) => a.id - b.id);
  const byId = new Map(fleet.map((vehicle) => [vehicle.id, vehicle]));
  for (const vehicle of fleet) {
    for (const studentId of vehicle.studentIds) {
      if (!registered.has(studentId)) registered.set(studentId, rideOf(vehicle));
    }
  }
  return (studentId: number, today: DayWay): Ride | undefined => {
    const named = today.mode === 'bus' || today.mode === 'car' ? today.vehicleId : undefined;
    const vehicle = named === undefined ? undefined : byId.get(named);
    return vehicle ? rideOf(vehicle) : registered.get(studentId);
  };
};

const releasedByOf = (marks: Marks, studentId: number) => {
  const actor = marks.releasedBy.get(studentId);
  return marks.released.has(studentId) && actor ? actorName(actor) : null;
};

/** One student as the teacher screen shows them, from their queue entry (if any) and the session's marks. */
const viewOf = (
  { schoolId: _, ...student }: Student,
  ride: Ride | undefined,
  room: Classroom | undefined,
  entry: QueueEntry | undefined,
  marks: Marks,
  today: PlanEntry,
): TeacherStudent => {
  const vehicle = entry
    ? { type: entry.vehicleType, number: entry.vehicleNumber, parentName: entry.vehicle?.parentName ?? null }
    : (ride ?? null);
  return {
    ...student,
    classroom: room ? { id: room.id, name: room.name } : null,
    inQueue: entry !== undefined,
    vehicle,
    vehicleType: vehicle?.type ?? null,
    number: vehicle?.number ?? null,
    entryId: entry?.id ?? null,
    entryVersion: entry?.version ?? null,
    queueStatus: entry && entry.status !== 'completed' ? entry.status : null,
    queueTime: entry?.queueTime ?? null,
    batchId: entry?.batchId ?? null,
    batchNumber: entry?.batchNumber ?? null,
    // An entry in a batch is in a loading batch: completing a batch completes its entries.
    batchStatus: entry?.batchId ? 'loading' : null,
    releasedAt: marks.released.get(student.id) ?? null,
    releasedBy: releasedByOf(marks, student.id),
    // A vehicle back in the queue puts the student back in the queue.
    pickedUpAt: entry ? null : (marks.pickedUp.get(student.id) ?? null),
    today,
  };
};

/**
 * The students of the given classrooms (every student of the school when
 * none are given) as the teacher screen needs them: in the queue or not,
 * their vehicle or bus, queue time, batch state, and whether a teacher
 * released them or their pickup completed in the session. It reads the
 * classrooms, their students, the school's vehicles (each student's ride),
 * the active queue and the classrooms' release marks; without a session nobody is in
 * the queue, released or picked up.
 */
export const teacherStudents = async (
  user: User,
  sessionId?: number,
  classroomIds?: readonly number[],
): Promise<TeacherStudent[]> => {
  const schoolId = ownSchoolId(user);
  const [rooms] = await Promise.all([
    classrooms.listBySchool(db, schoolId),
    sessionId === undefined ? undefined : assertSessionOfSchool(user, sessionId),
  ]);
  const { roster, markRooms } = await rosterOf(schoolId, rooms, classroomIds);
  roster.sort((a, b) => a.id - b.id);
  const [active, marks, rides, ways] = await Promise.all([
    sessionId === undefined ? [] : queue.listActive(db, sessionId),
    sessionId === undefined ? NO_MARKS : releases.ofClassrooms(db, sessionId, markRooms),
    ridesOf(schoolId),
    schoolToday(schoolId).then((today) =>
      waysHomeOn(
        schoolId,
        today,
        roster.map((student) => student.id),
      ),
    ),
  ]);
  const roomById = new Map(rooms.map((room) => [room.id, room]));
  const entryOf = new Map<number, QueueEntry>();
  for (const entry of active) for (const student of entry.students) entryOf.set(student.id, entry);
  return roster.map((student, i) => {
    const today = ways[i] as PlanEntry;
    return viewOf(
      student,
      rides(student.id, today.way),
      student.classroomId !== null ? roomById.get(student.classroomId) : undefined,
      entryOf.get(student.id),
      marks,
      today,
    );
  });
};

/**
 * Who was released and who was picked up in a session, for the queue
 * screens' badges: the release marks of every classroom of the school (one
 * Query each) and of students without one.
 */
export const sessionReleases = async (user: User, sessionId: number): Promise<StudentMark[]> => {
  const session = await sessionOfSchool(user, sessionId);
  const rooms = await classrooms.listBySchool(db, session.schoolId);
  const marks = await releases.ofClassrooms(db, sessionId, [...rooms.map((room) => room.id), null]);
  const ids = new Set([...marks.released.keys(), ...marks.pickedUp.keys()]);
  return [...ids]
    .sort((a, b) => a - b)
    .map((studentId) => ({
      studentId,
      releasedAt: marks.released.get(studentId) ?? null,
      pickedUpAt: marks.pickedUp.get(studentId) ?? null,
    }));
};

/**
 * Marks the students of pickups that just completed (together, at
 * `pickedUpAt`) as picked up in the session, for the teacher screen's Picked
 * Up and their history (with the release marks the completion recorded). The pickups have already completed, so a failed write is logged, never
 * turned into an error for the caller.
 */
export const recordPickups = async (
  scope: { schoolId: number; sessionId: number },
  completed: readonly Pick<QueueEntry, 'id' | 'vehicleNumber' | 'vehicleType' | 'students'>[],
  pickedUpAt: string,
  record: Recording,
  marks: ReadonlyMap<number, ReleaseMark> | undefined,
): Promise<void> => {
  const riders: StudentSummary[] = completed.flatMap((entry) => entry.students);
  if (riders.length === 0) return;
  try {
    await releases.pickUp(db, scope, completed, record, pickedUpAt, marks);
  } catch (error) {
    log('error', 'picked-up students not recorded', {
      sessionId: scope.sessionId,
      studentIds: riders.map((student) => student.id),
      error: (error as Error).message,
    });
  }
};

/**
 * Students (of the given classrooms, or all) whose vehicle is in the queue,
 * those whose car is being loaded now first (`readyOrder`).
 */
export const readyStudents = async (
  user: User,
  sessionId: number,
  classroomIds?: readonly number[],
): Promise<TeacherStudent[]> =>
  readyOrder((await teacherStudents(user, sessionId, classroomIds)).filter((student) => student.inQueue));

/**
 * What a release reads first, in one BatchGetItem (issue 54; with the
 * caller's sign-in when the route starts it early): the student, and the
 * school's running session as this instance knows it (`activeSessionOf`
 * reads the school's active one only when that one is not, or not known).
 */
export const releaseRead = (schoolId: number, studentId: number) =>
  keyedReads.all(students.keyedMany(schoolId, [studentId]), knownSessionRead(schoolId));

/** A release's first reads, and for whom they were read (`http/releaseStudent.ts` starts them early). */
export interface ReleaseReads {
  schoolId: number;
  studentId: number;
  reads: KeyedAnswer<ReturnType<typeof releaseRead>>;
}

/**
 * Releases a student for pickup in the school's running session; tells staff
 * (numbered in the session's sequence) and the child's parents' open pages
 * (without one), from one read of the school's connections.
 */
export const releaseStudent = async (user: User, studentId: number, early?: Promise<ReleaseReads>) => {
  const schoolId = ownSchoolId(user);
  // The record's retention (the school's, kept a minute) meanwhile.
  const recording = recordingBy(user, schoolId);
  recording.catch(() => undefined);
  const started = await early?.catch(() => undefined);
  // One read (or none more: the route's early reads, with the sign-in); the student's absence is still reported first.
  const [[student], known] =
    started?.schoolId === schoolId && started.studentId === studentId
      ? started.reads
      : await keyedReads.run(db, releaseRead(schoolId, studentId));
  if (!student) throw new NotFoundError('Student not found');
  const session = await activeSessionOf(schoolId, known);
  if (!session || !isSessionRunning(session))
    throw new ConflictError('There is no active session to release students in');
  const record = await recording;
  const releasedAt = new Date().toISOString();
  const answer = { studentId, sessionId: session.id, releasedAt };
  // The answer is known before the change: its key's claim keeps it (no write after the transaction).
  answerInTheChange(200, answer);
  const released = releases.release(db, { schoolId, sessionId: session.id }, student, record, releasedAt);
  // Staff see who released the child; the child's parents, on the school's connections the
  // staff's fan-out reads (no read of their own), only that they were (`tellParents`). The
  // event's number and the school's connections are read beside the transaction (ADR 0027,
  // h54ze): it holds no condition but the key's claim, so only a retry or a failed write
  // leaves the number unused (a gap: the line's screens read the line again).
  const event = {
    type: 'STUDENT_STATUS_UPDATE' as const,
    data: {
      studentId,
      sessionId: session.id,
      status: 'released' as const,
      releasedAt,
      releasedBy: actorName(record.actor),
    },
  };
  const told = publishToSession(
    schoolId,
    session.id,
    released.then(() => event),
    [student.classroomId],
    undefined,
    // The child's parents are known before the commit: the fan-out reads their pages only (h54zf).
    parentsConcernOf(event),
  );
  await released;
  countMetric('releases');
  await told;
  return answer;
};
