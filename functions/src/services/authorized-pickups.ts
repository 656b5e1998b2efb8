import type { StudentsAuthorizedPickup } from '@curbside/api';
import {
  AUTHORIZED_PICKUPS_MAX,
  type AuthorizedPickup,
  type AuthorizedPickupInput,
  alsoAllowedText,
  NotFoundError,
  pickupStillAllowed,
  type StudentAuthorizedPickups,
  type User,
  ValidationError,
} from '@curbside/domain';
import { authorizedPickups, parentLinks, students, users } from '@curbside/store';
import { assertSchoolWritable } from '../lib/auth';
import { db } from '../lib/context';
import { log } from '../lib/log';
import { publishAboutStudent } from './live-events';
import { type SchoolClock, schoolClock } from './school-clock';
import { ownSchoolId } from './tenancy';

/**
 * The adults a family allows to collect a child (issue 29). Every parent
 * linked to a child shares the child's list; another family's child is 404.
 * A one-day delegate counts through its day in the school's calendar (its
 * own time zone, issue 51).
 */
const today = async (schoolId: number) => (await schoolClock(schoolId)).today;
const current = (list: readonly AuthorizedPickup[], day: string) =>
  list.filter((pickup) => pickupStillAllowed(pickup, day)).sort((a, b) => a.id - b.id);

/** The parent's children, as (school, student) pairs. */
const childrenOf = (parent: User) => parentLinks.childrenOf(db, parent.id);

const childOf = async (parent: User, studentId: number) => {
  const child = (await childrenOf(parent)).find((link) => link.studentId === studentId);
  if (!child) throw new NotFoundError('Student not found');
  return child;
};

export const parentPickups = async (parent: User): Promise<AuthorizedPickup[]> => {
  const children = await childrenOf(parent);
  const days = new Map(
    await Promise.all(
      [...new Set(children.map((child) => child.schoolId))].map(
        async (schoolId) => [schoolId, await today(schoolId)] as const,
      ),
    ),
  );
  const lists = await Promise.all(
    children.map(async (child) =>
      current(
        await authorizedPickups.listByStudent(db, child.schoolId, child.studentId),
        days.get(child.schoolId) as string,
      ),
    ),
  );
  // Who added each is the school's to see (the curb), not told to every parent of the child.
  return lists
    .flat()
    .sort((a, b) => a.id - b.id)
    .map(({ createdByName: _, ...pickup }) => pickup);
};

/**
 * A child's list as the school's staff see it: each adult with who added
 * them (the name kept with the entry; an older entry's adder read by id) and
 * the line the curb shows.
 */
const staffList = async (
  schoolId: number,
  studentId: number,
  clock?: Promise<SchoolClock>,
): Promise<StudentAuthorizedPickups> => {
  // The list and the school's clock together (one round trip; the list is within the school's partitions).
  const [{ timeZone, today: day }, all] = await Promise.all([
    clock ?? schoolClock(schoolId),
    authorizedPickups.listByStudent(db, schoolId, studentId),
  ]);
  const list = current(all, day);
  const unnamed = [...new Set(list.filter((p) => p.createdByName === undefined).map((p) => p.createdBy))];
  const names = new Map(
    await Promise.all(unnamed.map(async (id) => [id, (await users.get(db, id))?.name ?? null] as const)),
  );
  return {
    pickups: list.map(({ createdByName, ...pickup }) => ({
      ...pickup,
      addedBy: createdByName ?? names.get(pickup.createdBy) ?? null,
    })),
    text: alsoAllowedText(list, day),
    timeZone,
    today: day,
  };
};

/**
 * Tells the school's open staff screens a child's list as it is now (issue 50):
 * those following the whole line and those following the child's classroom.
 * The change is made: a failure here is logged, and the screens read the list
 * again when they next load it.
 */
const tellStaff = async (schoolId: number, studentId: number) => {
  try {
    const [list, student] = await Promise.all([
      staffList(schoolId, studentId),
      students.get(db, schoolId, studentId),
    ]);
    await publishAboutStudent(schoolId, student?.classroomId ?? null, {
      type: 'AUTHORIZED_PICKUPS_CHANGED',
      data: { schoolId, studentId, ...list },
    });
  } catch (error) {
    log('warn', 'authorized pickups not told to staff', { error: (error as Error).message });
  }
};

export const addPickup = async (parent: User, input: AuthorizedPickupInput): Promise<AuthorizedPickup> => {
  const child = await childOf(parent, input.studentId);
  // A write into the child's school: none while it is in sandbox mode (issue 49).
  await assertSchoolWritable(child.schoolId);
  const day = await today(child.schoolId);
  const onDate = input.onDate ?? null;
  if (onDate !== null && onDate < day) {
    throw new ValidationError('The date is in the past', [
      { path: 'onDate', message: 'The date is in the past' },
    ]);
  }
  const existing = current(await authorizedPickups.listByStudent(db, child.schoolId, child.studentId), day);
  if (existing.length >= AUTHORIZED_PICKUPS_MAX) {
    const message = `At most ${AUTHORIZED_PICKUPS_MAX} people can be allowed to pick up one child`;
    throw new ValidationError(message, [{ path: 'studentId', message }]);
  }
  const { createdByName: _, ...added } = await authorizedPickups.create(db, {
    schoolId: child.schoolId,
    studentId: child.studentId,
    name: input.name,
    relationship: input.relationship,
    phone: input.phone,
    onDate,
    createdBy: parent.id,
    createdAt: new Date().toISOString(),
    createdByName: parent.name,
  });
  await tellStaff(child.schoolId, child.studentId);
  return added;
};

export const removePickup = async (parent: User, id: number): Promise<{ ok: true }> => {
  const lists = await Promise.all(
    (await childrenOf(parent)).map((child) =>
      authorizedPickups.listByStudent(db, child.schoolId, child.studentId),
    ),
  );
  const found = lists.flat().find((pickup) => pickup.id === id);
  if (!found) throw new NotFoundError('Authorized pickup not found');
  await assertSchoolWritable(found.schoolId);
  if (!(await authorizedPickups.delete(db, found))) throw new NotFoundError('Authorized pickup not found');
  await tellStaff(found.schoolId, found.studentId);
  return { ok: true };
};

/** A student's list as staff of the school see it, with the line the curb screens show. */
export const studentPickupsForStaff = async (
  user: User,
  studentId: number,
): Promise<StudentAuthorizedPickups> => {
  const schoolId = ownSchoolId(user);
  const [student, list] = await Promise.all([
    students.get(db, schoolId, studentId),
    staffList(schoolId, studentId),
  ]);
  if (!student) throw new NotFoundError('Student not found');
  return list;
};

/**
 * Several students' authorized adults for the school's staff in one read (issue 57, h57r: the
 * front queue's children): the students in one BatchGetItem, the school's clock read once and
 * each child's list (one Query each), all together. A student not of the school, or no longer
 * active, is left out.
 */
export const studentsPickupsForStaff = async (
  user: User,
  studentIds: readonly number[],
): Promise<{ lists: StudentsAuthorizedPickup[] }> => {
  const schoolId = ownSchoolId(user);
  const clock = schoolClock(schoolId);
  // Each asked child's list is read with the students (a Query within the caller's school: an id
  // of another school's child finds nothing there), then kept only for the students found.
  const [found, lists] = await Promise.all([
    students.getMany(db, schoolId, studentIds),
    Promise.all(
      studentIds.map(async (studentId) => ({ studentId, ...(await staffList(schoolId, studentId, clock)) })),
    ),
  ]);
  const known = new Set(found.map((student) => student.id));
  return { lists: lists.filter((list) => known.has(list.studentId)) };
};
