import {
  type Classroom,
  ConflictError,
  canPerform,
  emailHolder,
  ForbiddenError,
  fullName,
  NotFoundError,
  type School,
  type TeacherInput,
  type TeacherRow,
  type User,
  usernameFromName,
  ValidationError,
} from '@curbside/domain';
import { classrooms, users } from '@curbside/store';
import { db } from '../../lib/context';
import { endSignIns } from '../auth';
import { createWithFreeUsername, newCredentials } from './credentials';
import { rosterSchool } from './scope';
import { teacherRows } from './views';

type ListQuery = { schoolId?: number; search?: string; cursor?: string; limit: number };

export const listTeachers = async (user: User, query: ListQuery) => {
  const school = await rosterSchool(user, query.schoolId, 'read');
  const [page, rooms] = await Promise.all([
    users.teachersPage(db, school.id, query),
    classrooms.listBySchool(db, school.id),
  ]);
  return { items: teacherRows(page.items, rooms), next: page.next };
};

/** The classrooms a teacher is to teach: active classrooms of the school, checked before any write. */
const checkClassrooms = async (schoolId: number, ids: readonly number[] | undefined) => {
  const rooms = await classrooms.listBySchool(db, schoolId);
  for (const id of ids ?? []) {
    if (!rooms.some((room) => room.id === id)) {
      throw new ValidationError('That classroom does not exist', [
        { path: 'classroomIds', message: 'That classroom does not exist' },
      ]);
    }
  }
  return rooms;
};

/** Makes the teacher the teacher of exactly `ids` (absent: unchanged); rooms they leave have no teacher. */
const assignClassrooms = async (
  rooms: readonly Classroom[],
  teacherId: number,
  ids: readonly number[] | undefined,
) => {
  if (ids === undefined) return rooms;
  const wanted = new Set(ids);
  const next: Classroom[] = [];
  for (const room of rooms) {
    const next2 = wanted.has(room.id) ? teacherId : room.teacherId === teacherId ? null : room.teacherId;
    if (next2 !== room.teacherId) {
      const changed = { ...room, teacherId: next2 };
      await classrooms.update(db, changed);
      next.push(changed);
    } else next.push(room);
  }
  return next;
};

/** One email, one staff member of the school: a second teacher with it is refused (409). */
const assertEmailFree = async (schoolId: number, email: string | null, exceptId: number | null) => {
  const holder = emailHolder(await users.listBySchool(db, schoolId), email, exceptId);
  if (holder) throw new ConflictError(`The email ${email} is already used by ${holder.name}`);
};

const profileOf = (input: TeacherInput) => ({
  firstName: input.firstName,
  lastName: input.lastName,
  name: fullName(input),
  email: input.email,
  phone: input.phone,
});

/**
 * A new teacher: a staff account with role teacher, a username (chosen, or
 * made from the name) and a one-time password, shown once.
 */
export const createTeacher = async (user: User, schoolId: number | undefined, input: TeacherInput) => {
  const school = await rosterSchool(user, schoolId, 'write');
  await assertEmailFree(school.id, input.email, null);
  const rooms = await checkClassrooms(school.id, input.classroomIds);
  const base = input.username ?? usernameFromName(input.firstName, input.lastName);
  const first = await newCredentials(base);
  const teacher = await createWithFreeUsername(
    {
      ...profileOf(input),
      role: 'teacher',
      active: true,
      schoolId: school.id,
      districtId: school.districtId,
      mustChangePassword: true,
      passwordHash: first.passwordHash,
    },
    base,
    { exact: input.username !== null },
  );
  const after = await assignClassrooms(rooms, teacher.id, input.classroomIds);
  return {
    teacher: teacherRows([teacher], after)[0] as TeacherRow,
    credentials: { username: teacher.username, password: first.credentials.password },
  };
};

/** An active teacher of the school; anyone else answers 404. */
const teacherOf = async (school: School, id: number) => {
  const found = await users.getForRoster(db, id);
  if (found?.role !== 'teacher' || found.schoolId !== school.id || !found.active) {
    throw new NotFoundError('Teacher not found');
  }
  return found;
};

/** A new one-time password needs the right to create accounts (a teacher may edit, not take over, a colleague). */
export const assertMayResetPassword = (user: User) => {
  if (!canPerform(user.role, 'create')) throw new ForbiddenError("You don't have permission to do this.");
};

/**
 * A teacher's email is where a Clever sign-in lands the first time: a teacher
 * (who may edit colleagues' records, not create accounts) changes only their own.
 */
const assertMayChangeEmail = (user: User, before: User, email: string | null | undefined) => {
  const same = (before.email ?? '').trim().toLowerCase() === (email ?? '').trim().toLowerCase();
  if (!same && user.id !== before.id && !canPerform(user.role, 'create')) {
    throw new ForbiddenError('You can change only your own email.');
  }
};

export const updateTeacher = async (
  user: User,
  id: number,
  schoolId: number | undefined,
  input: TeacherInput,
) => {
  const school = await rosterSchool(user, schoolId, 'write');
  if (input.resetPassword) assertMayResetPassword(user);
  const before = await teacherOf(school, id);
  assertMayChangeEmail(user, before, input.email);
  await assertEmailFree(school.id, input.email, id);
  const rooms = await checkClassrooms(school.id, input.classroomIds);
  const teacher = await users.updateProfile(db, before, { ...profileOf(input), active: true });
  const after = await assignClassrooms(rooms, id, input.classroomIds);
  let credentials = null;
  if (input.resetPassword) {
    const made = await newCredentials(teacher.username);
    await users.setOneTimePassword(db, id, made.passwordHash);
    // A new password ends every sign-in made with the old one, live connections too.
    await endSignIns(id);
    credentials = made.credentials;
  }
  return { teacher: teacherRows([teacher], after)[0] as TeacherRow, credentials };
};

/**
 * Deactivates a teacher: they can no longer sign in, leave the lists, and
 * their classrooms have no teacher.
 */
export const deactivateTeacher = async (user: User, id: number, schoolId: number | undefined) => {
  const school = await rosterSchool(user, schoolId, 'write');
  const before = await teacherOf(school, id);
  // The school's own deactivation: an import never undoes it (`retiredBySis` false).
  const teacher = await users.updateProfile(db, before, { active: false, retiredBySis: false });
  // Signed out everywhere at once: sessions revoked, live connections closed.
  await endSignIns(id);
  const rooms = await classrooms.listBySchool(db, school.id);
  await assignClassrooms(rooms, id, []);
  return teacherRows([teacher], [])[0] as TeacherRow;
};
