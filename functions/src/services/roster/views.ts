import {
  type Classroom,
  type ParentRow,
  parentContactOf,
  personOf,
  type RosterRef,
  type Student,
  type StudentRow,
  type TeacherRow,
  type User,
  type Vehicle,
  type VehicleRow,
} from '@curbside/domain';
import { classrooms, dismissalPlans, students, vehicles } from '@curbside/store';
import { db } from '../../lib/context';

/** Roster rows: records with what the lists show beside them (classroom, vehicles, children). */

const ref = ({ id, firstName, lastName, grade }: Student): RosterRef => ({ id, firstName, lastName, grade });

/** Students with their classroom and the active vehicles that collect them. */
export const studentRows = async (schoolId: number, list: readonly Student[]): Promise<StudentRow[]> => {
  if (list.length === 0) return [];
  const [rooms, fleet, plans] = await Promise.all([
    classrooms.listAll(db, schoolId),
    vehicles.listBySchool(db, schoolId),
    dismissalPlans.ofStudents(
      db,
      schoolId,
      list.map((student) => student.id),
    ),
  ]);
  const roomById = new Map(rooms.map((room) => [room.id, room]));
  const ridesOf = new Map<number, StudentRow['vehicles']>();
  for (const vehicle of fleet) {
    for (const id of vehicle.studentIds) {
      ridesOf.set(id, [
        ...(ridesOf.get(id) ?? []),
        { id: vehicle.id, type: vehicle.type, number: vehicle.number },
      ]);
    }
  }
  return list.map((student) => {
    const room = student.classroomId === null ? undefined : roomById.get(student.classroomId);
    return {
      ...student,
      classroom: room?.active ? { id: room.id, name: room.name } : null,
      vehicles: ridesOf.get(student.id) ?? [],
      dismissalPlan: plans.get(student.id)?.plan ?? null,
    };
  });
};

/** Teachers with the classrooms they teach. */
export const teacherRows = (list: readonly User[], rooms: readonly Classroom[]): TeacherRow[] =>
  list.map((user) => ({
    ...personOf(user),
    classrooms: rooms
      .filter((room) => room.active && room.teacherId === user.id)
      .map(({ id, name, grade }) => ({ id, name, grade })),
  }));

/** Parents with their (active) children of this school. */
export const parentRows = async (
  schoolId: number,
  list: ReadonlyArray<User & { hasPassword: boolean }>,
): Promise<ParentRow[]> => {
  const children = await students.getMany(
    db,
    schoolId,
    list.flatMap((user) => user.studentIds ?? []),
  );
  const byId = new Map(children.map((student) => [student.id, student]));
  return list.map((user) => ({
    ...personOf(user),
    ...parentContactOf(user),
    canSignIn: user.hasPassword,
    students: [...new Set(user.studentIds ?? [])]
      .map((id) => byId.get(id))
      .filter((student): student is Student => student !== undefined)
      .map(ref),
  }));
};

/** Vehicles with the (active) students they collect. */
export const vehicleRows = async (schoolId: number, list: readonly Vehicle[]): Promise<VehicleRow[]> => {
  const riders = await students.getMany(
    db,
    schoolId,
    list.flatMap((vehicle) => vehicle.studentIds),
  );
  const byId = new Map(riders.map((student) => [student.id, student]));
  return list.map((vehicle) => ({
    ...vehicle,
    students: vehicle.studentIds
      .map((id) => byId.get(id))
      .filter((student): student is Student => student !== undefined)
      .map(ref),
  }));
};
