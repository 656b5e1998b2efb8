import {
  AUTHORIZED_PICKUPS_MAX,
  type AuthorizedPickup,
  type AuthorizedPickupInput,
  alsoAllowedText,
  NotFoundError,
  pickupStillAllowed,
  type User,
  ValidationError,
} from '@curbside/domain';
import { authorizedPickups, parentLinks, students } from '@curbside/store';
import { db } from '../lib/context';
import { schoolClock } from './school-clock';
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
  return lists.flat().sort((a, b) => a.id - b.id);
};

export const addPickup = async (parent: User, input: AuthorizedPickupInput): Promise<AuthorizedPickup> => {
  const child = await childOf(parent, input.studentId);
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
  return authorizedPickups.create(db, {
    schoolId: child.schoolId,
    studentId: child.studentId,
    name: input.name,
    relationship: input.relationship,
    phone: input.phone,
    onDate,
    createdBy: parent.id,
    createdAt: new Date().toISOString(),
  });
};

export const removePickup = async (parent: User, id: number): Promise<{ ok: true }> => {
  const lists = await Promise.all(
    (await childrenOf(parent)).map((child) =>
      authorizedPickups.listByStudent(db, child.schoolId, child.studentId),
    ),
  );
  const found = lists.flat().find((pickup) => pickup.id === id);
  if (!found || !(await authorizedPickups.delete(db, found)))
    throw new NotFoundError('Authorized pickup not found');
  return { ok: true };
};

/** A student's list as staff of the school see it, with the line the curb screens show. */
export const studentPickupsForStaff = async (user: User, studentId: number) => {
  const schoolId = ownSchoolId(user);
  const [student, day] = await Promise.all([students.get(db, schoolId, studentId), today(schoolId)]);
  if (!student) throw new NotFoundError('Student not found');
  const pickups = current(await authorizedPickups.listByStudent(db, schoolId, studentId), day);
  return { pickups, text: alsoAllowedText(pickups, day) };
};
