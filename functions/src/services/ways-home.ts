import {
  type DayWay,
  type DismissalChange,
  type PlanEntry,
  programsOf,
  type Student,
  type User,
  ValidationError,
  vehiclesOf,
  type WayOptions,
  wayHomeOn,
} from '@curbside/domain';
import {
  classrooms,
  dismissalChanges,
  dismissalPlans,
  programs,
  type StoredPlan,
  students,
  vehicles,
} from '@curbside/store';
import { db } from '../lib/context';
import { rosterSchool } from './roster/scope';
import { clockOf } from './school-clock';

/**
 * Every way home (issue 51, docs/adr/0021-every-way-home.md): the one place
 * that answers "how does this child go home on this date", for a set of
 * students or a whole school, by the rule in `packages/domain`
 * (`wayHomeOn`: the weekly plan, overridden by the day's approved change).
 * Every screen and route that calls, releases or lists children by their way
 * home reads it here.
 *
 * Reads: the students' plans (one BatchGetItem per 100 students, or the
 * school's plan partition for a large set) and the changes that may fall on
 * the day (one gsi1 Query; for up to 100 students, filtered to theirs by
 * DynamoDB: a day of many changes is not sent and parsed whole for a
 * classroom), in parallel — one round trip, whatever the number of students.
 */

/** Above this many students, the school's whole plan partition is read instead of their keys. */
const BATCH_READ_MAX = 300;

/** The changes that may fall on a date, by student (the rule keeps those that apply). */
const changesByStudent = (changes: readonly DismissalChange[]) => {
  const byStudent = new Map<number, DismissalChange[]>();
  for (const change of changes)
    byStudent.set(change.studentId, [...(byStudent.get(change.studentId) ?? []), change]);
  return byStudent;
};

/** The way home on `date` of each of `studentIds` (in their order), by the product's rule. */
export const waysHomeOn = async (
  schoolId: number,
  date: string,
  studentIds: readonly number[],
): Promise<PlanEntry[]> => {
  if (studentIds.length === 0) return [];
  const [plans, changes] = await Promise.all([
    studentIds.length > BATCH_READ_MAX
      ? dismissalPlans.ofSchool(db, schoolId)
      : dismissalPlans.ofStudents(db, schoolId, studentIds),
    dismissalChanges.mayFallOnFor(db, schoolId, date, studentIds),
  ]);
  return waysFrom(date, studentIds, plans, changes);
};

/**
 * `waysHomeOn` from reads the caller made (a release by way home reads the
 * plans with its marks, and the changes beside its sign-in: issue 54).
 */
export const waysFrom = (
  date: string,
  studentIds: readonly number[],
  plans: ReadonlyMap<number, StoredPlan>,
  changes: readonly DismissalChange[],
): PlanEntry[] => {
  const byStudent = changesByStudent(changes);
  return studentIds.map((id) => wayHomeOn(id, date, plans.get(id)?.plan, byStudent.get(id) ?? []));
};

/** What the school offers: its active buses and its programs (inactive ones too, for their names). */
export const wayOptionsOf = async (schoolId: number): Promise<WayOptions> => {
  const [buses, list] = await Promise.all([vehicles.buses(db, schoolId), programs.ofSchool(db, schoolId)]);
  return {
    buses,
    programs: list.map(({ id, name, kind, location, active }) => ({ id, name, kind, location, active })),
  };
};

/**
 * A way naming one car (issue 52: a friend's car, Grandma's car for a day),
 * by its id or its number, with both filled in from the school's active car
 * (400 when it names none); any other way as it is.
 */
export const withNamedCar = async <W extends DayWay>(schoolId: number, way: W, path: string): Promise<W> => {
  if (way.mode !== 'car' || (way.vehicleId === undefined && way.vehicleNumber === undefined)) return way;
  const car =
    way.vehicleId !== undefined
      ? await vehicles.get(db, schoolId, way.vehicleId)
      : await vehicles.byNumber(db, schoolId, 'car', way.vehicleNumber as string);
  const named =
    way.vehicleNumber === undefined || car?.number.toUpperCase() === way.vehicleNumber.toUpperCase();
  if (car?.type !== 'car' || !car.active || !named) {
    throw new ValidationError('That car is not one of the school’s cars', [
      { path, message: 'That car is not one of the school’s cars' },
    ]);
  }
  return { ...way, vehicleId: car.id, vehicleNumber: car.number };
};

/** A way names a bus of the school and an active program of the school (400 otherwise). */
export const checkOffered = (ways: Parameters<typeof vehiclesOf>[0], options: WayOptions, path: string) => {
  for (const vehicleId of vehiclesOf(ways)) {
    if (!options.buses.some((bus) => bus.id === vehicleId)) {
      throw new ValidationError('That bus is not one of the school’s buses', [
        { path, message: 'That bus is not one of the school’s buses' },
      ]);
    }
  }
  for (const programId of programsOf(ways)) {
    if (!options.programs.some((program) => program.id === programId && program.active)) {
      throw new ValidationError('That program is not offered by the school', [
        { path, message: 'That program is not offered by the school' },
      ]);
    }
  }
};

/**
 * `GET /api/dismissal-plan?date=`: the day's plan of the school's active
 * students (default: the school's today); a teacher's, of their own
 * classrooms; any caller may narrow it to `classroomIds`.
 */
export const planOfDay = async (
  user: User,
  query: { date?: string | undefined; classroomIds?: number[] | undefined; schoolId?: number | undefined },
): Promise<{ date: string; students: PlanEntry[] }> => {
  const school = await rosterSchool(user, query.schoolId, 'read');
  const date = query.date ?? clockOf(school).today;
  let roster: Student[];
  if (query.classroomIds === undefined && user.role !== 'teacher') {
    roster = await students.listBySchool(db, school.id);
  } else {
    const rooms = (await classrooms.listAll(db, school.id)).filter(
      (room) =>
        room.active &&
        (query.classroomIds === undefined
          ? room.teacherId === user.id
          : query.classroomIds.includes(room.id)),
    );
    roster = (
      await Promise.all(rooms.map((room) => students.listByClassroom(db, school.id, room.id)))
    ).flat();
  }
  return {
    date,
    students: await waysHomeOn(
      school.id,
      date,
      roster.map((student) => student.id),
    ),
  };
};
