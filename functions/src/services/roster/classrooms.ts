import {
  type Classroom,
  type ClassroomInput,
  ConflictError,
  NotFoundError,
  normalize,
  type User,
  ValidationError,
} from '@curbside/domain';
import { classrooms, students, users } from '@curbside/store';
import { db } from '../../lib/context';
import { rosterSchool } from './scope';

/** The school's active classrooms (a teacher's, a wrangler's, or with `?schoolId=` one overseen). */
export const listClassrooms = async (user: User, schoolId?: number): Promise<Classroom[]> => {
  if (schoolId === undefined && user.schoolId === null) return [];
  const school = await rosterSchool(user, schoolId, 'read');
  return classrooms.listBySchool(db, school.id);
};

/** The name is free among the school's active classrooms; the teacher is an active teacher of the school. */
const check = async (schoolId: number, input: ClassroomInput, self: number | null) => {
  const rooms = await classrooms.listBySchool(db, schoolId);
  if (rooms.some((room) => room.id !== self && normalize(room.name) === normalize(input.name))) {
    throw new ConflictError(`A classroom named ${input.name} already exists`);
  }
  if (input.teacherId !== null) {
    const teacher = await users.get(db, input.teacherId);
    if (teacher?.role !== 'teacher' || teacher.schoolId !== schoolId || !teacher.active) {
      throw new ValidationError('That teacher does not exist', [
        { path: 'teacherId', message: 'That teacher does not exist' },
      ]);
    }
  }
};

export const createClassroom = async (user: User, schoolId: number | undefined, input: ClassroomInput) => {
  const school = await rosterSchool(user, schoolId, 'write');
  await check(school.id, input, null);
  return classrooms.create(db, { schoolId: school.id, ...input });
};

const activeClassroom = async (schoolId: number, id: number) => {
  const room = await classrooms.get(db, schoolId, id);
  if (!room?.active) throw new NotFoundError('Classroom not found');
  return room;
};

export const updateClassroom = async (
  user: User,
  id: number,
  schoolId: number | undefined,
  input: ClassroomInput,
) => {
  const school = await rosterSchool(user, schoolId, 'write');
  const before = await activeClassroom(school.id, id);
  await check(school.id, input, id);
  return classrooms.update(db, { ...before, ...input });
};

/** How many active students a classroom has (asked before deactivating it). */
export const classroomStudentCount = async (user: User, id: number, schoolId: number | undefined) => {
  const school = await rosterSchool(user, schoolId, 'read');
  await activeClassroom(school.id, id);
  return { count: (await students.listByClassroom(db, school.id, id)).length };
};

/** Deactivates an empty classroom; one with students asks for them to be moved first. */
export const deactivateClassroom = async (user: User, id: number, schoolId: number | undefined) => {
  const school = await rosterSchool(user, schoolId, 'write');
  const before = await activeClassroom(school.id, id);
  const members = (await students.listBySchool(db, school.id)).filter(
    (student) => student.classroomId === id,
  );
  if (members.length > 0) {
    throw new ConflictError(
      `${before.name} still has ${members.length} student${members.length === 1 ? '' : 's'}; move them to another classroom first`,
    );
  }
  return classrooms.update(db, { ...before, active: false });
};
