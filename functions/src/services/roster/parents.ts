import {
  ForbiddenError,
  fullName,
  NotFoundError,
  normalize,
  type ParentInput,
  type ParentRow,
  type School,
  type User,
  usernameFromName,
  ValidationError,
} from '@curbside/domain';
import { parentLinks, parents, students, users } from '@curbside/store';
import { db } from '../../lib/context';
import { endSignIns } from '../auth';
import { stopHearingOf } from '../live-connections';
import { createWithFreeUsername, newCredentials } from './credentials';
import { rosterSchool } from './scope';
import { assertMayResetPassword } from './teachers';
import { parentRows } from './views';

type ListQuery = { schoolId?: number; search?: string; cursor?: string; limit: number };

export const listParents = async (user: User, query: ListQuery) => {
  const school = await rosterSchool(user, query.schoolId, 'read');
  const page = await parents.page(db, school.id, query);
  return { items: await parentRows(school.id, page.items), next: page.next };
};

/** Every child named must be an active student of the school (checked before any write). */
const checkChildren = async (schoolId: number, ids: readonly number[] | undefined) => {
  if (!ids || ids.length === 0) return;
  const found = await students.getMany(db, schoolId, ids);
  if (found.length !== new Set(ids).size) {
    throw new ValidationError('That student does not exist', [
      { path: 'studentIds', message: 'That student does not exist' },
    ]);
  }
};

const profileOf = (input: ParentInput) => ({
  firstName: input.firstName,
  lastName: input.lastName,
  name: fullName(input),
  email: input.email,
  phone: input.phone,
  address: input.address,
  emergencyContact: input.emergencyContact,
  emergencyPhone: input.emergencyPhone,
});

/** A parent's username: their email, else one made from their name. */
export const parentUsername = (parent: { email: string | null; firstName: string; lastName: string }) =>
  parent.email ? normalize(parent.email) : usernameFromName(parent.firstName, parent.lastName);

const rowOf = async (schoolId: number, user: User, hasPassword: boolean) =>
  (await parentRows(schoolId, [{ ...user, hasPassword }]))[0] as ParentRow;

/** A new parent account of the school, linked to its children, with a one-time password shown once. */
export const createParent = async (user: User, schoolId: number | undefined, input: ParentInput) => {
  const school = await rosterSchool(user, schoolId, 'write');
  await checkChildren(school.id, input.studentIds);
  const base = parentUsername(input);
  const first = await newCredentials(base);
  const parent = await createWithFreeUsername(
    {
      ...profileOf(input),
      role: 'parent',
      active: true,
      schoolId: school.id,
      districtId: null,
      madeBySchoolId: school.id,
      mustChangePassword: true,
      studentIds: [],
      passwordHash: first.passwordHash,
    },
    base,
  );
  const studentIds = [...new Set(input.studentIds ?? [])];
  if (studentIds.length > 0) await parents.setChildren(db, parent, school.id, studentIds);
  return {
    parent: await rowOf(school.id, { ...parent, studentIds }, true),
    credentials: { username: parent.username, password: first.credentials.password },
  };
};

/** An active parent of the school; anyone else answers 404. */
const parentOf = async (school: School, id: number) => {
  const found = await users.getForRoster(db, id);
  if (found?.role !== 'parent' || found.schoolId !== school.id || !found.active) {
    throw new NotFoundError('Parent not found');
  }
  return found;
};

const NOT_YOURS =
  'Only the parent can change this password: your school did not make this account, or it follows children at another school.';

/**
 * A school may give a new password only to an account it made, and only while
 * every child the account follows is at the school: never to a parent who
 * registered themselves, nor to one another school's children depend on
 * (docs/adr/0010-guardian-accounts.md).
 */
const assertSchoolsOwn = async (school: School, parent: User) => {
  const children = await parentLinks.childrenOf(db, parent.id);
  if (parent.madeBySchoolId !== school.id || children.some((child) => child.schoolId !== school.id)) {
    throw new ForbiddenError(NOT_YOURS);
  }
};

export const updateParent = async (
  user: User,
  id: number,
  schoolId: number | undefined,
  input: ParentInput,
) => {
  const school = await rosterSchool(user, schoolId, 'write');
  if (input.resetPassword) assertMayResetPassword(user);
  const before = await parentOf(school, id);
  if (input.resetPassword) await assertSchoolsOwn(school, before);
  await checkChildren(school.id, input.studentIds);
  let parent = await users.updateProfile(db, before, { ...profileOf(input), active: true });
  if (input.studentIds !== undefined) {
    const studentIds = [...new Set(input.studentIds)];
    const { removed } = await parents.setChildren(db, parent, school.id, studentIds);
    await stopHearingOf(parent.id, school.id, removed);
    parent = { ...parent, studentIds };
  }
  let credentials = null;
  if (input.resetPassword) {
    const made = await newCredentials(parent.username);
    // An imported parent's username is claimed with its first password.
    const claimed =
      (await users.claims(db, [parent.username], 'parent')).get(parent.username.toLowerCase()) === id;
    // Either way a one-time password: the parent chooses their own at the next sign-in.
    if (claimed) await users.setOneTimePassword(db, id, made.passwordHash);
    else parent = await users.claimAndSetPassword(db, parent, made.passwordHash);
    // A new password ends every sign-in made with the old one, live connections too.
    await endSignIns(id);
    credentials = { username: parent.username, password: made.credentials.password };
  }
  return { parent: await rowOf(school.id, parent, before.hasPassword || credentials !== null), credentials };
};

/** Deactivates a parent account: it can no longer sign in and leaves the lists; its links stay for history. */
export const deactivateParent = async (user: User, id: number, schoolId: number | undefined) => {
  const school = await rosterSchool(user, schoolId, 'write');
  const before = await parentOf(school, id);
  // The school's own deactivation: an import never undoes it (`retiredBySis` false).
  const parent = await users.updateProfile(db, before, { active: false, retiredBySis: false });
  // Signed out everywhere at once: sessions revoked, live connections closed.
  await endSignIns(id);
  return rowOf(school.id, parent, before.hasPassword);
};
