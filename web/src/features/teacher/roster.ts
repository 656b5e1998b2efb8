import type { Classroom, TeacherStudent, User } from '@curbside/domain';

/** Ready-student thresholds (specification §4, §9): 3 s, 10 s, 10 minutes. */
export const JUST_ARRIVED_MS = 3_000;
export const NEW_ARRIVAL_MS = 10_000;
export const LONG_WAIT_MS = 10 * 60 * 1000;

/**
 * How a ready student is highlighted by age since their car was queued:
 * under 3 s just arrived (pulse, enlarged), under 10 s yellow, from
 * 10 minutes red, otherwise green.
 */
export type ReadyHighlight = 'just-arrived' | 'new' | 'waiting' | 'overdue';

export const readyHighlight = (queueTime: string | null, now: number): ReadyHighlight => {
  if (!queueTime) return 'waiting';
  const age = now - Date.parse(queueTime);
  if (age < JUST_ARRIVED_MS) return 'just-arrived';
  if (age < NEW_ARRIVAL_MS) return 'new';
  if (age >= LONG_WAIT_MS) return 'overdue';
  return 'waiting';
};

/** Teacher student search: case-insensitive substring of the first or last name. */
export const matchesStudentSearch = (
  student: Pick<TeacherStudent, 'firstName' | 'lastName'>,
  search: string,
): boolean => {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return student.firstName.toLowerCase().includes(needle) || student.lastName.toLowerCase().includes(needle);
};

/** Ready / In Class / Picked Up counts of a set of students. */
export interface RosterCounts {
  ready: number;
  inClass: number;
  pickedUp: number;
  total: number;
}

/**
 * Whether a student counts as picked up: their vehicle's pickup completed this
 * session and the vehicle is not in the queue again.
 */
export const isPickedUp = (student: Pick<TeacherStudent, 'inQueue' | 'pickedUpAt'>): boolean =>
  !student.inQueue && student.pickedUpAt !== null;

/**
 * Splits students into ready (their vehicle is in the queue), picked up and
 * in class (everyone else).
 */
export const rosterOf = (students: readonly TeacherStudent[]) => {
  const ready = students.filter((student) => student.inQueue);
  const pickedUp = students.filter(isPickedUp);
  const inClass = students.filter((student) => !student.inQueue && !isPickedUp(student));
  return { ready, pickedUp, inClass };
};

export const countsOf = (roster: ReturnType<typeof rosterOf>): RosterCounts => ({
  ready: roster.ready.length,
  inClass: roster.inClass.length,
  pickedUp: roster.pickedUp.length,
  total: roster.ready.length + roster.inClass.length + roster.pickedUp.length,
});

/** The groups of the student batch-status view, most urgent first. */
export const BATCH_GROUPS = [
  { key: 'overflow', title: 'Students in Overflow - URGENT' },
  { key: 'batched', title: 'Students in Active Batches' },
  { key: 'waiting', title: 'Students Waiting for Batch Assignment' },
  { key: 'inClass', title: 'Students Remaining in Class' },
] as const;
export type BatchGroupKey = (typeof BATCH_GROUPS)[number]['key'];

export const batchGroupOf = (
  student: Pick<TeacherStudent, 'inQueue' | 'queueStatus' | 'batchId'>,
): BatchGroupKey => {
  if (!student.inQueue) return 'inClass';
  if (student.queueStatus === 'overflow') return 'overflow';
  if (student.batchId !== null) return 'batched';
  return 'waiting';
};

/**
 * The classrooms selected by default: the teacher's own, otherwise the first
 * classroom; classroom 1 before the classrooms have loaded.
 */
export const INITIAL_CLASSROOM_ID = 1;

export const defaultClassroomIds = (classrooms: readonly Classroom[], userId: number | null): number[] => {
  const own = classrooms.filter((room) => userId !== null && room.teacherId === userId);
  if (own.length > 0) return own.map((room) => room.id);
  const first = classrooms[0];
  return first ? [first.id] : [INITIAL_CLASSROOM_ID];
};

/** Teacher names by id: a teacher knows only themself; other roles read the school's teachers. */
export const teacherNames = (user: User | null, users: readonly User[] | undefined): Map<number, string> => {
  if (!user) return new Map();
  if (user.role === 'teacher') return new Map([[user.id, user.name]]);
  return new Map(
    (users ?? []).filter((item) => item.role === 'teacher').map((item) => [item.id, item.name] as const),
  );
};

export const NO_TEACHER = 'No teacher assigned';
