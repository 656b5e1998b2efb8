import {
  carForStudent,
  NotFoundError,
  type Student,
  type StudentInput,
  type StudentRow,
  type User,
  ValidationError,
  vehicleName,
} from '@curbside/domain';
import { classrooms, students, vehicles } from '@curbside/store';
import { db } from '../../lib/context';
import { rosterSchool } from './scope';
import { studentRows } from './views';

type ListQuery = { schoolId?: number; search?: string; cursor?: string; limit: number };

export const listStudents = async (user: User, query: ListQuery) => {
  const school = await rosterSchool(user, query.schoolId, 'read');
  const page = await students.page(db, school.id, query);
  return { items: await studentRows(school.id, page.items), next: page.next };
};

/** The classroom must be an active classroom of the school. */
const checkClassroom = async (schoolId: number, classroomId: number | null) => {
  if (classroomId === null) return;
  const room = await classrooms.get(db, schoolId, classroomId);
  if (!room?.active)
    throw new ValidationError('That classroom does not exist', [
      { path: 'classroomId', message: 'That classroom does not exist' },
    ]);
};

/**
 * The vehicles to change so that exactly `rides` collect the student, by the
 * same rule as the students CSV (`carForStudent`): a car number not on the
 * school's list is registered, a deactivated car comes back, and a bus must
 * be an active bus of the school (checked before anything is written).
 */
const planRides = async (schoolId: number, studentId: number | null, rides: StudentInput['vehicles']) => {
  if (rides === undefined) return { changes: [], newCars: [] };
  const fleet = await vehicles.listAll(db, schoolId);
  const wanted = new Set<number>();
  const newCars: string[] = [];
  for (const ride of rides) {
    const vehicle = fleet.find(
      (v) => v.type === ride.type && v.number.toUpperCase() === ride.number.toUpperCase(),
    );
    if (ride.type === 'bus' && !vehicle?.active) {
      const message = `No ${vehicleName(ride.type, ride.number)} is registered`;
      throw new ValidationError(message, [{ path: 'vehicles', message }]);
    }
    if (vehicle) wanted.add(vehicle.id);
    else if (!newCars.some((number) => number.toUpperCase() === ride.number.toUpperCase()))
      newCars.push(ride.number);
  }
  const changes = fleet
    .filter(
      (vehicle) =>
        (studentId !== null && vehicle.active && vehicle.studentIds.includes(studentId)) !==
        wanted.has(vehicle.id),
    )
    .map((vehicle) => ({ vehicle, add: wanted.has(vehicle.id) }));
  return { changes, newCars };
};

const applyRides = async (
  studentId: number,
  student: Pick<Student, 'schoolId' | 'parentName' | 'parentPhone'>,
  { changes, newCars }: Awaited<ReturnType<typeof planRides>>,
) => {
  for (const { vehicle, add } of changes) {
    if (add && !vehicle.active) {
      // A deactivated car comes back for this student.
      await vehicles.update(db, vehicle, {
        ...vehicle,
        active: true,
        studentIds: [...new Set([...vehicle.studentIds, studentId])],
      });
      continue;
    }
    await vehicles.setStudents(
      db,
      vehicle,
      add ? [...vehicle.studentIds, studentId] : vehicle.studentIds.filter((id) => id !== studentId),
    );
  }
  for (const number of newCars) {
    await vehicles.create(db, carForStudent(student.schoolId, number, student, [studentId]));
  }
};

const fieldsOf = (input: StudentInput) => ({
  firstName: input.firstName,
  lastName: input.lastName,
  grade: input.grade,
  classroomId: input.classroomId,
  parentName: input.parentName,
  parentPhone: input.parentPhone,
  parentEmail: input.parentEmail,
  notes: input.notes,
});

const rowOf = async (schoolId: number, student: Student): Promise<StudentRow> =>
  (await studentRows(schoolId, [student]))[0] as StudentRow;

export const createStudent = async (user: User, schoolId: number | undefined, input: StudentInput) => {
  const school = await rosterSchool(user, schoolId, 'write');
  await checkClassroom(school.id, input.classroomId);
  // A new student rides nothing yet: every listed vehicle gains them.
  const rides = await planRides(school.id, null, input.vehicles);
  const student = await students.create(db, { schoolId: school.id, ...fieldsOf(input) });
  await applyRides(student.id, student, rides);
  return rowOf(school.id, student);
};

/** An active student of the school (a deactivated one is gone from the roster). */
const activeStudent = async (schoolId: number, id: number) => {
  const student = await students.get(db, schoolId, id);
  if (!student?.active) throw new NotFoundError('Student not found');
  return student;
};

export const updateStudent = async (
  user: User,
  id: number,
  schoolId: number | undefined,
  input: StudentInput,
) => {
  const school = await rosterSchool(user, schoolId, 'write');
  const before = await activeStudent(school.id, id);
  await checkClassroom(school.id, input.classroomId);
  const rides = await planRides(school.id, id, input.vehicles);
  const student = await students.update(db, { ...before, ...fieldsOf(input) });
  await applyRides(id, student, rides);
  return rowOf(school.id, student);
};

/** Deactivates a student: gone from the lists and the car line, kept for history. */
export const deactivateStudent = async (user: User, id: number, schoolId: number | undefined) => {
  const school = await rosterSchool(user, schoolId, 'write');
  const before = await activeStudent(school.id, id);
  const student = await students.update(db, { ...before, active: false });
  return rowOf(school.id, student);
};
