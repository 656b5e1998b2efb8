import { channels } from '@curbside/api';
import {
  ConflictError,
  isSessionRunning,
  NotFoundError,
  type QueueEntry,
  type TeacherStudent,
  type User,
} from '@curbside/domain';
import {
  batches,
  classrooms,
  parentLinks,
  pickupSessions,
  queue,
  releases,
  students,
  vehicles,
} from '@curbside/store';
import { db } from '../lib/context';
import { log } from '../lib/log';
import { publishToChannel, publishToStaff } from './live-events';
import { sessionOfSchool } from './scope';
import { ownSchoolId } from './tenancy';

/** What a session adds to the teacher view: its queue, its batches, releases and pickups. */
const stateOfSession = async (sessionId: number) => {
  const [active, sessionBatches, marks] = await Promise.all([
    queue.listActive(db, sessionId),
    batches.listBySession(db, sessionId),
    releases.ofSession(db, sessionId),
  ]);
  return { active, sessionBatches, marks };
};

/** Without a session: nothing queued, batched, released or picked up. */
const NO_SESSION: Awaited<ReturnType<typeof stateOfSession>> = {
  active: [],
  sessionBatches: [],
  marks: { released: new Map(), pickedUp: new Map() },
};

/**
 * Every student of the school as the teacher screen needs them: in the
 * queue or not, their vehicle or bus, queue time, batch state, and whether a
 * teacher released them or their pickup completed in the session. Without a
 * session, nobody is in the queue, released or picked up.
 */
export const teacherStudents = async (user: User, sessionId?: number): Promise<TeacherStudent[]> => {
  const schoolId = ownSchoolId(user);
  if (sessionId !== undefined) await sessionOfSchool(user, sessionId);
  const [all, rooms, fleet, { active, sessionBatches, marks }] = await Promise.all([
    students.listBySchool(db, schoolId),
    classrooms.listBySchool(db, schoolId),
    vehicles.listBySchool(db, schoolId),
    sessionId === undefined ? NO_SESSION : stateOfSession(sessionId),
  ]);
  const roomById = new Map(rooms.map((room) => [room.id, room]));
  const vehicleOf = new Map<number, (typeof fleet)[number]>();
  for (const vehicle of fleet)
    for (const id of vehicle.studentIds) if (!vehicleOf.has(id)) vehicleOf.set(id, vehicle);
  const entryOf = new Map<number, (typeof active)[number]>();
  for (const entry of active) for (const student of entry.students) entryOf.set(student.id, entry);
  const batchById = new Map(sessionBatches.map((batch) => [batch.id, batch]));

  return all.map(({ schoolId: _, ...student }) => {
    const entry = entryOf.get(student.id);
    const vehicle = entry
      ? {
          type: entry.vehicleType,
          number: entry.vehicleNumber,
          parentName: entry.vehicle?.parentName ?? null,
        }
      : vehicleOf.has(student.id)
        ? (({ type, number, parentName }) => ({ type, number, parentName }))(vehicleOf.get(student.id)!)
        : null;
    const room = student.classroomId !== null ? roomById.get(student.classroomId) : undefined;
    const batch = entry?.batchId ? batchById.get(entry.batchId) : undefined;
    return {
      ...student,
      classroom: room ? { id: room.id, name: room.name } : null,
      inQueue: entry !== undefined,
      vehicle,
      vehicleType: vehicle?.type ?? null,
      number: vehicle?.number ?? null,
      entryId: entry?.id ?? null,
      queueStatus: entry && entry.status !== 'completed' ? entry.status : null,
      queueTime: entry?.queueTime ?? null,
      batchId: entry?.batchId ?? null,
      batchNumber: entry?.batchNumber ?? null,
      batchStatus: batch?.status ?? null,
      releasedAt: marks.released.get(student.id) ?? null,
      // A vehicle back in the queue puts the student back in the queue.
      pickedUpAt: entry ? null : (marks.pickedUp.get(student.id) ?? null),
    };
  });
};

/**
 * Marks the students of pickups that just completed (together, at
 * `pickedUpAt`) as picked up in the session, for the teacher screen's Picked
 * Up. The pickups have already completed, so a failed write is logged, never
 * turned into an error for the caller.
 */
export const recordPickups = async (
  sessionId: number,
  completed: readonly Pick<QueueEntry, 'students'>[],
  pickedUpAt: string,
): Promise<void> => {
  const studentIds = completed.flatMap((entry) => entry.students.map((student) => student.id));
  if (studentIds.length === 0) return;
  try {
    await releases.pickUp(db, sessionId, studentIds, pickedUpAt);
  } catch (error) {
    log('error', 'picked-up students not recorded', {
      sessionId,
      studentIds,
      error: (error as Error).message,
    });
  }
};

/** Students whose vehicle is in the queue, newest arrival first. */
export const readyStudents = async (user: User, sessionId: number): Promise<TeacherStudent[]> =>
  (await teacherStudents(user, sessionId))
    .filter((student) => student.inQueue)
    .sort((a, b) => (b.queueTime ?? '').localeCompare(a.queueTime ?? ''));

/** Releases a student for pickup in the school's running session; tells staff and the child's parents. */
export const releaseStudent = async (user: User, studentId: number) => {
  const schoolId = ownSchoolId(user);
  // Independent reads, one round trip; the student's absence is still reported first.
  const [[student], session] = await Promise.all([
    students.getMany(db, schoolId, [studentId]),
    pickupSessions.active(db, schoolId),
  ]);
  if (!student) throw new NotFoundError('Student not found');
  if (!session || !isSessionRunning(session))
    throw new ConflictError('There is no active session to release students in');
  const releasedAt = await releases.release(db, session.id, studentId);
  const event = {
    type: 'STUDENT_STATUS_UPDATE' as const,
    data: { studentId, sessionId: session.id, status: 'released', releasedAt },
  };
  const [, parents] = await Promise.all([
    publishToStaff(schoolId, event),
    parentLinks.parentsOf(db, schoolId, studentId),
  ]);
  for (const parentId of parents) {
    await publishToChannel(channels.parent(parentId), event);
  }
  return { studentId, sessionId: session.id, releasedAt };
};
