import type { CarLineEvent } from '@curbside/api';
import { type PlanEntry, type QueueEntry, readyOrder, type TeacherStudent } from '@curbside/domain';
import type { QueryKey } from '@tanstack/react-query';
import { entryChanges } from '../live/changes';
import { cachePatch, type PatchContext } from '../live/live-sync';

/** The queue status card polls the queue every 5 s on top of the live events (specification §7, §9). */
export const QUEUE_STATUS_POLL_MS = 5000;

/** Which students a teacher list holds: those of some classrooms, or the whole school's. */
export const classroomScope = (classroomIds?: readonly number[]) =>
  classroomIds === undefined ? 'school' : [...classroomIds].sort((a, b) => a - b).join(',');

/**
 * Query keys of the teacher's student lists (`['teacher-students']`): every
 * student of the selected classrooms in a session (or outside any: null),
 * and the ready ones.
 */
export const teacherKeys = {
  all: ['teacher-students'] as const,
  students: (sessionId: number | null, classroomIds?: readonly number[]) =>
    [...teacherKeys.all, sessionId ?? 'no-session', 'all', classroomScope(classroomIds)] as const,
  ready: (sessionId: number, classroomIds?: readonly number[]) =>
    [...teacherKeys.all, sessionId, 'ready', classroomScope(classroomIds)] as const,
};

const listOf = (queryKey: QueryKey, sessionId: number, list: 'all' | 'ready') =>
  queryKey.length === 4 &&
  queryKey[0] === teacherKeys.all[0] &&
  queryKey[1] === sessionId &&
  queryKey[2] === list &&
  typeof queryKey[3] === 'string'
    ? queryKey[3]
    : undefined;

/** A student whose vehicle is in the queue, as the server shows them. */
const queued = (student: TeacherStudent, entry: QueueEntry): TeacherStudent => {
  const vehicle = {
    type: entry.vehicleType,
    number: entry.vehicleNumber,
    parentName: entry.vehicle?.parentName ?? null,
  };
  return {
    ...student,
    inQueue: true,
    vehicle,
    vehicleType: vehicle.type,
    number: vehicle.number,
    entryId: entry.id,
    entryVersion: entry.version,
    queueStatus: entry.status === 'completed' ? null : entry.status,
    queueTime: entry.queueTime,
    batchId: entry.batchId,
    batchNumber: entry.batchNumber,
    batchStatus: entry.batchId !== null ? 'loading' : null,
    pickedUpAt: null,
  };
};

/** A student whose vehicle left the queue: picked up (with the time) or removed. */
const leftQueue = (student: TeacherStudent, entry: QueueEntry): TeacherStudent => ({
  ...student,
  inQueue: false,
  entryId: null,
  entryVersion: null,
  queueStatus: null,
  queueTime: null,
  batchId: null,
  batchNumber: null,
  batchStatus: null,
  pickedUpAt: entry.status === 'completed' ? entry.exitTime : student.pickedUpAt,
});

/** The students of a list after an event: their queue state follows the entries, and releases. */
const studentsAfter = (list: TeacherStudent[], event: CarLineEvent, context: PatchContext) => {
  let next = list;
  if (event.type === 'STUDENT_STATUS_UPDATE' && event.data.status === 'released') {
    const { studentId, releasedAt } = event.data;
    const releasedBy = event.data.releasedBy ?? null;
    if (
      next.some(
        (student) =>
          student.id === studentId &&
          (student.releasedAt !== releasedAt || student.releasedBy !== releasedBy),
      )
    ) {
      next = next.map((student) =>
        student.id === studentId ? { ...student, releasedAt, releasedBy } : student,
      );
    }
  }
  // Walkers, a bus's riders or a program's children released in one press (issue 52).
  if (event.type === 'STUDENTS_RELEASED') {
    const { releasedAt, releasedBy } = event.data;
    const ids = new Set(event.data.students.map((student) => student.id));
    if (next.some((student) => ids.has(student.id) && student.releasedAt === null)) {
      next = next.map((student) =>
        ids.has(student.id) && student.releasedAt === null ? { ...student, releasedAt, releasedBy } : student,
      );
    }
  }
  for (const { entry, left } of entryChanges(event)) {
    const riders = new Set(entry.students.map((student) => student.id));
    if (!next.some((student) => riders.has(student.id))) continue;
    const gone = left || context.ended(entry.id);
    next = next.map((student) => {
      if (!riders.has(student.id)) return student;
      if (gone) return student.entryId === entry.id ? leftQueue(student, entry) : student;
      if (student.entryId === entry.id && (student.entryVersion ?? 0) >= entry.version) return student;
      return queued(student, entry);
    });
  }
  return next;
};

/** Ready students in the ready list's order (the cars being loaded now first). */
const readyOf = (students: readonly TeacherStudent[]) =>
  readyOrder(students.filter((student) => student.inQueue));

/** The teacher's students of a session follow the queue and releases. */
export const teacherStudentsPatch = cachePatch<TeacherStudent[]>({
  name: 'teacher.students',
  matches: (queryKey, sessionId) => listOf(queryKey, sessionId, 'all') !== undefined,
  reduce: (list, event, context) => studentsAfter(list, event, context),
});

/**
 * The ready list: taken from the same classrooms' full list when it is cached
 * (already patched), otherwise patched on its own (it can then only lose students).
 */
export const readyStudentsPatch = cachePatch<TeacherStudent[]>({
  name: 'teacher.ready',
  matches: (queryKey, sessionId) => listOf(queryKey, sessionId, 'ready') !== undefined,
  reduce: (list, event, context, queryKey) => {
    const sessionId = queryKey[1];
    const scope = queryKey[3];
    const all =
      typeof sessionId === 'number' && typeof scope === 'string'
        ? context.data<TeacherStudent[]>([...teacherKeys.all, sessionId, 'all', scope])
        : undefined;
    const next = readyOf(all ?? studentsAfter(list, event, context));
    const same = next.length === list.length && next.every((student, i) => student === list[i]);
    return same ? list : next;
  },
});

/** Both of the teacher's student lists (the full list before the ready one). */
export const teacherPatches = [teacherStudentsPatch, readyStudentsPatch] as const;

/**
 * A teacher list after the office changed some children's way home today
 * (`DISMISSAL_PLAN_CHANGED`, issue 52): each named child takes their new
 * entry; the list is kept as it is when it names none of them.
 */
export const withTodaysWays = (
  list: TeacherStudent[] | undefined,
  entries: readonly PlanEntry[],
): TeacherStudent[] | undefined => {
  if (!list) return list;
  const byId = new Map(entries.map((entry) => [entry.studentId, entry]));
  if (!list.some((student) => byId.has(student.id))) return list;
  return list.map((student) => {
    const today = byId.get(student.id);
    return today ? { ...student, today } : student;
  });
};
