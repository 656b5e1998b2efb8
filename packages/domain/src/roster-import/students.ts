import { parseDismissalCell, samePlan, type WeeklyPlan } from '../dismissal-plans';
import type { Classroom } from '../pickup';
import type { Vehicle } from '../queue';
import { fullName, normalize, type Student, splitName, studentKey } from '../roster';
import { carForStudent, type RowError } from '../roster-import-basics';
import {
  addOnce,
  classroomFinder,
  emptyPlan,
  groupBy,
  type ParentRecord,
  type PlanOutcome,
  parentIndex,
  repeats,
  sameFields,
  Tracker,
  tempIds,
} from './plan';
import type { ImportRow } from './rows';

/** The plan of a students file. */

const STUDENT_FIELDS = [
  'firstName',
  'lastName',
  'grade',
  'classroomId',
  'parentName',
  'parentPhone',
  'parentEmail',
  'notes',
  'active',
] as const;

/** Bus routes match a bus's number (`3`, `B3`) or its route name (`Route C`, `C`). */
export const busForRoute = (buses: readonly Vehicle[], route: string): Vehicle | undefined => {
  const wanted = normalize(route);
  const bare = wanted.replace(/^(bus|b)\s*/, '');
  return buses.find((bus) => {
    const number = normalize(bus.number);
    const name = normalize(bus.parentName);
    return (
      number === wanted ||
      number === bare ||
      name === wanted ||
      name.replace(/^route\s*/, '') === wanted.replace(/^route\s*/, '')
    );
  });
};

export interface StudentImportContext {
  schoolId: number;
  students: readonly Student[];
  classrooms: readonly Classroom[];
  vehicles: readonly Vehicle[];
  parents: readonly ParentRecord[];
  /** The school's programs (the `dismissal` column names them) and its students' current weekly plans. */
  programs?: ReadonlyArray<{ id: number; name: string; active: boolean }>;
  plans?: ReadonlyMap<number, WeeklyPlan>;
}

/**
 * A students file: each row creates or updates a student (name + grade), puts
 * them in the named classroom (created when missing) or, without one, the
 * grade's only classroom; links them to the car `vehicleNumber` (created with
 * the row's parent name and phone when new) and to the bus of `busRoute`; and
 * links them to a parent account of the school's found by the parent's email
 * or phone, or created (when the row names the parent).
 */
export const planStudentImport = (
  rows: ReadonlyArray<ImportRow<'students'>>,
  context: StudentImportContext,
): PlanOutcome => {
  const errors: RowError[] = [];
  const plan = emptyPlan();
  const nextId = tempIds();
  const students = new Tracker<Student>();
  const vehicles = new Tracker<Vehicle>();
  const parents = new Tracker<ParentRecord>();
  const classrooms = new Tracker<Classroom>();
  const rooms = classroomFinder(context.classrooms, classrooms, context.schoolId, nextId);
  const activeRooms = context.classrooms.filter((room) => room.active);
  const roomsOfGrade = groupBy(activeRooms, (room) => normalize(room.grade));
  const byKey = groupBy(context.students, studentKey);
  const cars = new Map(
    context.vehicles.filter((v) => v.type === 'car').map((v) => [v.number.toUpperCase(), v] as const),
  );
  const buses = context.vehicles.filter((v) => v.type === 'bus' && v.active);
  const parentsFound = parentIndex(context.parents, context.schoolId);
  const repeated = repeats();

  for (const row of rows) {
    const rowErrors: RowError[] = [];
    const key = studentKey(row);
    const earlier = repeated(row.row, [key]);
    if (earlier !== undefined) {
      errors.push({ row: row.row, column: 'firstName', message: `Same student as row ${earlier}` });
      continue;
    }
    const matches = byKey.get(key) ?? [];
    const active = matches.filter((student) => student.active);
    if (active.length > 1) {
      errors.push({
        row: row.row,
        column: 'firstName',
        message: `${active.length} students named ${fullName(row)} in grade ${row.grade} already exist; edit them in the Students list`,
      });
      continue;
    }
    const existing = active[0] ?? matches[0];
    const way = row.dismissal
      ? parseDismissalCell(row.dismissal, { buses, programs: context.programs ?? [] })
      : undefined;
    if (way && 'error' in way) rowErrors.push({ row: row.row, column: 'dismissal', message: way.error });
    const bus = row.busRoute ? busForRoute(buses, row.busRoute) : undefined;
    if (row.busRoute && !bus) {
      rowErrors.push({
        row: row.row,
        column: 'busRoute',
        message: `No bus runs route ${row.busRoute}. Add the bus in the Vehicles tab first.`,
      });
    }
    let classroomId: number | null;
    if (row.classroom) {
      classroomId = rooms.byName(row.classroom, row.grade, row.row, rowErrors)?.id ?? null;
    } else if (existing && existing.classroomId !== null) {
      classroomId = existing.classroomId;
    } else {
      const gradeRooms = roomsOfGrade.get(normalize(row.grade)) ?? [];
      classroomId = gradeRooms.length === 1 ? (gradeRooms[0] as Classroom).id : null;
    }
    if (rowErrors.length > 0) {
      errors.push(...rowErrors);
      continue;
    }

    const fields = {
      firstName: row.firstName,
      lastName: row.lastName,
      grade: row.grade,
      classroomId,
      parentName: row.parentName,
      parentPhone: row.parentPhone,
      parentEmail: row.parentEmail,
      notes: row.notes,
      active: true,
    };
    let student: Student;
    const week = way && 'plan' in way ? way.plan : undefined;
    const before = existing ? context.plans?.get(existing.id) : undefined;
    const newWeek = week !== undefined && !(before && samePlan(before, week));
    if (existing) {
      student = students.edit(existing);
      if (sameFields(student, { ...student, ...fields }, STUDENT_FIELDS) && !newWeek) plan.counts.unchanged++;
      else plan.counts.updated++;
      Object.assign(student, fields);
    } else {
      student = students.add({ id: nextId('student'), schoolId: context.schoolId, ...fields });
      plan.counts.created++;
    }
    if (week && newWeek) plan.dismissalPlans.push({ studentId: student.id, plan: week });

    if (row.vehicleNumber) {
      const number = row.vehicleNumber.toUpperCase();
      const known = cars.get(number);
      const car = known
        ? vehicles.edit(known)
        : vehicles.add({ id: nextId('vehicle'), ...carForStudent(context.schoolId, row.vehicleNumber, row) });
      cars.set(number, car);
      car.active = true;
      // A car this file creates takes its rows' contact; a registered car keeps its own.
      if (car.id < 0) {
        car.parentName ??= row.parentName;
        car.parentPhone ??= row.parentPhone;
      }
      addOnce(car.studentIds, student.id);
    }
    if (bus) addOnce(vehicles.edit(bus).studentIds, student.id);

    if (row.parentName && (row.parentEmail || row.parentPhone)) {
      const known = parentsFound.find(row.parentEmail, row.parentPhone);
      if (known) {
        addOnce((known.id < 0 ? known : parents.edit(known)).studentIds, student.id);
      } else {
        const { firstName, lastName } = splitName(row.parentName);
        const parent = parents.add({
          id: nextId('user'),
          schoolId: context.schoolId,
          firstName,
          lastName,
          name: row.parentName,
          username: '',
          email: row.parentEmail,
          phone: row.parentPhone,
          address: null,
          emergencyContact: null,
          emergencyPhone: null,
          active: true,
          studentIds: [student.id],
          madeBySchoolId: context.schoolId,
        });
        parentsFound.add(parent);
      }
    }
  }
  if (errors.length > 0) return { ok: false, errors };
  // The parent index hands out working copies for new parents; existing ones went through `edit`.
  plan.students = students.result();
  plan.vehicles = vehicles.result();
  plan.parents = parents.result();
  plan.classrooms = classrooms.result();
  return { ok: true, plan };
};
