import * as z from 'zod';
import { parseDismissalCell, samePlan, type WeeklyPlan } from './dismissal-plans';
import type { Classroom } from './pickup';
import { VEHICLE_TYPES, type Vehicle, type VehicleType } from './queue';
import { vehicleNumberSchema } from './queue-schemas';
import {
  fullName,
  gradeSchema,
  normalize,
  optionalEmail,
  optionalGradeSchema,
  optionalPhone,
  optionalText,
  type ParentContact,
  type Person,
  phoneDigits,
  requiredText,
  type Student,
  splitName,
  studentKey,
  usernameFromName,
  usernameSchema,
} from './roster';
import {
  CSV_TEMPLATES,
  carForStudent,
  type ImportCounts,
  type ImportKind,
  OPTIONAL_COLUMNS,
  type RowError,
} from './roster-import-basics';

/**
 * CSV import of the rosters (specification §3 "CSV templates"): the
 * templates' columns, the rules of each row, and the plan of what a file
 * changes. A file with any invalid row changes nothing; a valid one creates
 * what is new, updates what changed and leaves the rest, so importing the
 * same file twice changes nothing the second time. Rows are matched on a
 * natural key: student name + grade, teacher username or email, parent email
 * or phone (of accounts the school made), vehicle type + number. Links are only ever added by an import
 * (a child is never unlinked because a row leaves a column blank).
 */

export * from './roster-import-basics';

/** A header cell as it is matched: `First Name`, `firstname` and `firstName` are one column. */
export const columnKey = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * The template columns a header row lacks (extra columns are ignored), and
 * for each known column the header cell that names it.
 */
export const matchColumns = (kind: ImportKind, headers: readonly string[]) => {
  const byKey = new Map(headers.map((header) => [columnKey(header), header]));
  const columns = new Map<string, string>();
  const missing: string[] = [];
  for (const column of [...CSV_TEMPLATES[kind], ...OPTIONAL_COLUMNS[kind]]) {
    const header = byKey.get(columnKey(column));
    if (header !== undefined) columns.set(column, header);
    else if (CSV_TEMPLATES[kind].includes(column)) missing.push(column);
  }
  return { columns, missing };
};

// ---------------------------------------------------------------------------
// Row rules. Cells are text; a blank optional cell is null.

const cell = optionalText;
const required = requiredText;
const phone = optionalPhone;
const email = optionalEmail;
const optionalNumber = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value ? value : null))
  .pipe(vehicleNumberSchema.nullable());

export const studentRowSchema = z.object({
  firstName: required('First name', 50),
  lastName: required('Last name', 50),
  grade: gradeSchema,
  parentName: cell('Parent name', 100),
  parentPhone: phone('Parent phone'),
  parentEmail: email('Parent email'),
  vehicleNumber: optionalNumber,
  busRoute: cell('Bus route', 30),
  notes: cell('Notes', 500),
  classroom: cell('Classroom', 50),
  /** The student's weekly way home (issue 51): `car`, `walker`, `bus:<number>`, `program:<name>`, or five with `|`. */
  dismissal: cell('Dismissal', 300),
});
export const teacherRowSchema = z.object({
  firstName: required('First name', 50),
  lastName: required('Last name', 50),
  email: email('Email'),
  phone: phone('Phone'),
  grade: optionalGradeSchema,
  classroom: cell('Classroom', 50),
  username: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value : null))
    .pipe(usernameSchema.nullable()),
});
export const parentRowSchema = z
  .object({
    firstName: required('First name', 50),
    lastName: required('Last name', 50),
    email: email('Email'),
    phone: phone('Phone'),
    address: cell('Address', 200),
    emergencyContact: cell('Emergency contact', 100),
    emergencyPhone: phone('Emergency phone'),
    studentNames: cell('Student names', 1000),
  })
  .refine((row) => row.email !== null || row.phone !== null, {
    message: 'Email or phone is required',
    path: ['email'],
  });
export const vehicleRowSchema = z.object({
  number: vehicleNumberSchema,
  type: z
    .string()
    .trim()
    .toLowerCase()
    .optional()
    .transform((value) => value || 'car')
    .pipe(z.enum(VEHICLE_TYPES, { message: 'Type must be car or bus' })),
  make: cell('Make', 50),
  model: cell('Model', 50),
  color: cell('Color', 30),
  licensePlate: cell('License plate', 20),
  parentName: cell('Parent name', 100),
  parentPhone: phone('Parent phone'),
  notes: cell('Notes', 500),
});

export const ROW_SCHEMAS = {
  students: studentRowSchema,
  teachers: teacherRowSchema,
  parents: parentRowSchema,
  vehicles: vehicleRowSchema,
} as const;
export type ImportRow<K extends ImportKind> = z.output<(typeof ROW_SCHEMAS)[K]> & { row: number };

/** The first row of a file is its header: data rows start at spreadsheet row 2. */
export const FIRST_DATA_ROW = 2;

/**
 * Checks every row of a parsed file; answers the valid rows (with their
 * spreadsheet row numbers) and an error for every bad cell.
 */
export const validateRows = <K extends ImportKind>(
  kind: K,
  records: ReadonlyArray<Record<string, string | undefined>>,
): { rows: Array<ImportRow<K>>; errors: RowError[] } => {
  const schema = ROW_SCHEMAS[kind];
  const rows: Array<ImportRow<K>> = [];
  const errors: RowError[] = [];
  records.forEach((record, index) => {
    const row = index + FIRST_DATA_ROW;
    const result = schema.safeParse(record);
    if (result.success) {
      rows.push({ ...(result.data as z.output<(typeof ROW_SCHEMAS)[K]>), row });
      return;
    }
    const seen = new Set<string>();
    for (const issue of result.error.issues) {
      const column = typeof issue.path[0] === 'string' ? issue.path[0] : null;
      const key = `${column}`;
      if (seen.has(key)) continue; // one message per cell
      seen.add(key);
      errors.push({ row, column, message: issue.message });
    }
  });
  return { rows, errors };
};

// ---------------------------------------------------------------------------
// Plans. New records get negative temporary ids (one sequence per kind); the
// service swaps them for real ids (`remapIds`) before anything is written.

/** A parent account as the roster keeps it. */
export interface ParentRecord extends Person, ParentContact {
  schoolId: number | null;
  studentIds: number[];
  /** The school that made the account (absent: its holder registered it, and typed its contact). */
  madeBySchoolId?: number;
}
/** A teacher account as the roster keeps it. */
export type TeacherRecord = Person;

interface Changes<T> {
  create: T[];
  update: T[];
}
const changes = <T>(): Changes<T> => ({ create: [], update: [] });

export interface ImportPlan {
  counts: ImportCounts;
  students: Changes<Student>;
  teachers: Changes<TeacherRecord>;
  parents: Changes<ParentRecord>;
  vehicles: Changes<Vehicle>;
  classrooms: Changes<Classroom>;
  /** Students' new weekly plans (the students file's `dismissal` column; only those that change). */
  dismissalPlans: Array<{ studentId: number; plan: WeeklyPlan }>;
}

export type PlanOutcome = { ok: true; plan: ImportPlan } | { ok: false; errors: RowError[] };

const emptyPlan = (): ImportPlan => ({
  counts: { created: 0, updated: 0, unchanged: 0 },
  students: changes(),
  teachers: changes(),
  parents: changes(),
  vehicles: changes(),
  classrooms: changes(),
  dismissalPlans: [],
});

/** Temporary ids: -1, -2, … per kind. */
const tempIds = () => {
  const next: Record<string, number> = {};
  return (kind: 'student' | 'user' | 'vehicle' | 'classroom') => {
    next[kind] = (next[kind] ?? 0) - 1;
    return next[kind];
  };
};

const sameFields = <T extends object>(a: T, b: T, fields: ReadonlyArray<keyof T>) =>
  fields.every((field) => JSON.stringify(a[field] ?? null) === JSON.stringify(b[field] ?? null));

/**
 * Tracks the records a plan touches: originals are kept aside, so only what
 * really changed is written.
 */
class Tracker<T extends { id: number }> {
  private readonly originals = new Map<number, string>();
  private readonly touched = new Map<number, T>();
  private readonly created = new Set<number>();

  add(record: T): T {
    this.created.add(record.id);
    this.touched.set(record.id, record);
    return record;
  }
  /** A working copy of an existing record (the same copy on every call). */
  edit(record: T): T {
    const copy = this.touched.get(record.id);
    if (copy) return copy;
    const clone = structuredClone(record);
    this.originals.set(record.id, JSON.stringify(record));
    this.touched.set(record.id, clone);
    return clone;
  }
  result(): Changes<T> {
    const out = changes<T>();
    for (const [id, record] of this.touched) {
      if (this.created.has(id)) out.create.push(record);
      else if (this.originals.get(id) !== JSON.stringify(record)) out.update.push(record);
    }
    return out;
  }
}

/** Remembers the natural keys of the rows so far; answers the earlier row a row repeats, if any. */
const repeats = () => {
  const seen = new Map<string, number>();
  return (row: number, keys: ReadonlyArray<string | null | false | undefined>): number | undefined => {
    const present = keys.filter((key): key is string => Boolean(key));
    const earlier = present.map((key) => seen.get(key)).find((value) => value !== undefined);
    if (earlier === undefined) for (const key of present) seen.set(key, row);
    return earlier;
  };
};

const addOnce = (list: number[], id: number) => {
  if (!list.includes(id)) list.push(id);
};

const groupBy = <T>(items: readonly T[], key: (item: T) => string) => {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    map.set(k, [...(map.get(k) ?? []), item]);
  }
  return map;
};

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

interface ClassroomFinder {
  /** The active classroom of that name, or a new one with that grade (an error without a grade). */
  byName: (name: string, grade: string | null, row: number, errors: RowError[]) => Classroom | null;
}

const classroomFinder = (
  existing: readonly Classroom[],
  tracker: Tracker<Classroom>,
  schoolId: number,
  nextId: ReturnType<typeof tempIds>,
): ClassroomFinder => {
  const byName = new Map(existing.filter((room) => room.active).map((room) => [normalize(room.name), room]));
  return {
    byName: (name, grade, row, errors) => {
      const found = byName.get(normalize(name));
      if (found) return found;
      if (!grade) {
        errors.push({ row, column: 'grade', message: `Grade is required to create classroom ${name}` });
        return null;
      }
      const room = tracker.add({
        id: nextId('classroom'),
        schoolId,
        name,
        grade,
        teacherId: null,
        active: true,
      });
      byName.set(normalize(name), room);
      return room;
    },
  };
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
 * The school's own parent accounts by email and by phone digits, growing as
 * the plan adds some. Only accounts this school made are keys: a parent who
 * registered themselves typed their email and phone, which nobody checked, so
 * a row naming that contact gets an account of its own (never that one).
 */
const parentIndex = (parents: readonly ParentRecord[], schoolId: number) => {
  const byEmail = new Map<string, ParentRecord>();
  const byPhone = new Map<string, ParentRecord>();
  const add = (parent: ParentRecord) => {
    if (parent.email) byEmail.set(normalize(parent.email), parent);
    if (parent.phone) byPhone.set(phoneDigits(parent.phone), parent);
  };
  for (const parent of parents) if (parent.active && parent.madeBySchoolId === schoolId) add(parent);
  const find = (email: string | null, phone: string | null) =>
    (email ? byEmail.get(normalize(email)) : undefined) ??
    (phone ? byPhone.get(phoneDigits(phone)) : undefined);
  return { add, find };
};

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

export interface TeacherImportContext {
  schoolId: number;
  teachers: readonly TeacherRecord[];
  classrooms: readonly Classroom[];
  /** Usernames of the file that belong to someone who is not a teacher of this school. */
  takenUsernames: ReadonlySet<string>;
}

/**
 * A teachers file: each row creates or updates a teacher (matched on
 * username, else email) and makes them the teacher of the named classroom
 * (created with the row's grade when missing). New teachers without a
 * username get one made from their name.
 */
export const planTeacherImport = (
  rows: ReadonlyArray<ImportRow<'teachers'>>,
  context: TeacherImportContext,
): PlanOutcome => {
  const errors: RowError[] = [];
  const plan = emptyPlan();
  const nextId = tempIds();
  const teachers = new Tracker<TeacherRecord>();
  const classrooms = new Tracker<Classroom>();
  const rooms = classroomFinder(context.classrooms, classrooms, context.schoolId, nextId);
  const byUsername = new Map(context.teachers.map((t) => [normalize(t.username), t]));
  const byEmail = new Map(context.teachers.filter((t) => t.email).map((t) => [normalize(t.email), t]));
  const usernames = new Set([...context.takenUsernames].map(normalize));
  for (const teacher of context.teachers) usernames.add(normalize(teacher.username));
  const repeated = repeats();

  for (const row of rows) {
    const rowErrors: RowError[] = [];
    const earlier = repeated(row.row, [
      row.username && `u:${normalize(row.username)}`,
      row.email && `e:${normalize(row.email)}`,
    ]);
    if (earlier !== undefined) {
      errors.push({
        row: row.row,
        column: row.username ? 'username' : 'email',
        message: `Same teacher as row ${earlier}`,
      });
      continue;
    }
    const existing =
      (row.username ? byUsername.get(normalize(row.username)) : undefined) ??
      (row.email ? byEmail.get(normalize(row.email)) : undefined);
    if (!existing && row.username && context.takenUsernames.has(normalize(row.username))) {
      rowErrors.push({
        row: row.row,
        column: 'username',
        message: `Username ${row.username} is already taken`,
      });
    }
    if (!existing && !row.email && !row.username) {
      // Without either key a second import could not find this teacher again.
      rowErrors.push({ row: row.row, column: 'email', message: 'Email or username is required' });
    }
    const room = row.classroom ? rooms.byName(row.classroom, row.grade, row.row, rowErrors) : null;
    if (rowErrors.length > 0) {
      errors.push(...rowErrors);
      continue;
    }
    const fields = {
      firstName: row.firstName,
      lastName: row.lastName,
      name: fullName(row),
      email: row.email,
      phone: row.phone,
      active: true,
    };
    let teacher: TeacherRecord;
    if (existing) {
      teacher = teachers.edit(existing);
      const same = sameFields(teacher, { ...teacher, ...fields }, [
        'firstName',
        'lastName',
        'name',
        'email',
        'phone',
        'active',
      ]);
      Object.assign(teacher, fields);
      if (same && (!room || room.teacherId === teacher.id)) plan.counts.unchanged++;
      else plan.counts.updated++;
    } else {
      let username = row.username ?? usernameFromName(row.firstName, row.lastName);
      if (!row.username) {
        const base = username;
        for (let n = 2; usernames.has(normalize(username)); n++) username = `${base}${n}`;
      }
      usernames.add(normalize(username));
      teacher = teachers.add({ id: nextId('user'), username, ...fields });
      byUsername.set(normalize(username), teacher);
      if (row.email) byEmail.set(normalize(row.email), teacher);
      plan.counts.created++;
    }
    if (room && room.teacherId !== teacher.id) {
      (room.id < 0 ? room : classrooms.edit(room)).teacherId = teacher.id;
    }
  }
  if (errors.length > 0) return { ok: false, errors };
  plan.teachers = teachers.result();
  plan.classrooms = classrooms.result();
  return { ok: true, plan };
};

export interface ParentImportContext {
  schoolId: number;
  parents: readonly ParentRecord[];
  students: readonly Student[];
}

/** `Ava Martinez (2)` → name `ava martinez`, grade `2`. */
const parseStudentName = (text: string) => {
  const match = /^(.*?)\s*\(([^()]*)\)\s*$/.exec(text);
  return match
    ? { name: normalize(match[1]), grade: normalize(match[2]) }
    : { name: normalize(text), grade: null as string | null };
};

/**
 * A parents file: each row creates or updates a parent account the school
 * made (matched on email, else phone) and links it to the students of `studentNames`
 * (`First Last`, separated by `;`; `First Last (grade)` when two students share
 * a name).
 */
export const planParentImport = (
  rows: ReadonlyArray<ImportRow<'parents'>>,
  context: ParentImportContext,
): PlanOutcome => {
  const errors: RowError[] = [];
  const plan = emptyPlan();
  const nextId = tempIds();
  const parents = new Tracker<ParentRecord>();
  const found = parentIndex(context.parents, context.schoolId);
  const byName = groupBy(
    context.students.filter((student) => student.active),
    (student) => normalize(fullName(student)),
  );
  const repeated = repeats();

  for (const row of rows) {
    const earlier = repeated(row.row, [
      row.email && `e:${normalize(row.email)}`,
      row.phone && `p:${phoneDigits(row.phone)}`,
    ]);
    if (earlier !== undefined) {
      errors.push({
        row: row.row,
        column: row.email ? 'email' : 'phone',
        message: `Same parent as row ${earlier}`,
      });
      continue;
    }
    const studentIds: number[] = [];
    let bad = false;
    for (const text of (row.studentNames ?? '')
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)) {
      const wanted = parseStudentName(text);
      const candidates = (byName.get(wanted.name) ?? []).filter(
        (student) => wanted.grade === null || normalize(student.grade) === wanted.grade,
      );
      if (candidates.length === 1) addOnce(studentIds, (candidates[0] as Student).id);
      else {
        bad = true;
        errors.push({
          row: row.row,
          column: 'studentNames',
          message:
            candidates.length === 0
              ? `No student named ${text}`
              : `${candidates.length} students are named ${text}; add the grade, e.g. ${text} (${candidates[0]?.grade})`,
        });
      }
    }
    if (bad) continue;
    const fields = {
      firstName: row.firstName,
      lastName: row.lastName,
      name: fullName(row),
      email: row.email,
      phone: row.phone,
      address: row.address,
      emergencyContact: row.emergencyContact,
      emergencyPhone: row.emergencyPhone,
      active: true,
    };
    const existing = found.find(row.email, row.phone);
    if (existing && existing.id < 0) continue; // cannot happen: same keys were refused above
    if (existing) {
      const parent = parents.edit(existing);
      const before = JSON.stringify(parent);
      Object.assign(parent, fields);
      for (const id of studentIds) addOnce(parent.studentIds, id);
      if (JSON.stringify(parent) === before) plan.counts.unchanged++;
      else plan.counts.updated++;
    } else {
      const parent = parents.add({
        id: nextId('user'),
        schoolId: context.schoolId,
        username: '',
        ...fields,
        studentIds,
        madeBySchoolId: context.schoolId,
      });
      found.add(parent);
      plan.counts.created++;
    }
  }
  if (errors.length > 0) return { ok: false, errors };
  plan.parents = parents.result();
  return { ok: true, plan };
};

export interface VehicleImportContext {
  schoolId: number;
  vehicles: readonly Vehicle[];
}

const VEHICLE_FIELDS = [
  'make',
  'model',
  'color',
  'licensePlate',
  'parentName',
  'parentPhone',
  'notes',
  'active',
] as const;

/** A vehicles file: each row creates or updates a car or bus (matched on type and number); its students stay. */
export const planVehicleImport = (
  rows: ReadonlyArray<ImportRow<'vehicles'>>,
  context: VehicleImportContext,
): PlanOutcome => {
  const errors: RowError[] = [];
  const plan = emptyPlan();
  const nextId = tempIds();
  const vehicles = new Tracker<Vehicle>();
  const keyOf = (type: VehicleType, number: string) => `${type}#${number.toUpperCase()}`;
  const byKey = new Map(context.vehicles.map((v) => [keyOf(v.type, v.number), v]));
  const repeated = repeats();
  for (const row of rows) {
    const key = keyOf(row.type, row.number);
    const earlier = repeated(row.row, [key]);
    if (earlier !== undefined) {
      errors.push({ row: row.row, column: 'number', message: `Same ${row.type} as row ${earlier}` });
      continue;
    }
    const fields = {
      make: row.make,
      model: row.model,
      color: row.color,
      licensePlate: row.licensePlate,
      parentName: row.parentName,
      parentPhone: row.parentPhone,
      notes: row.notes,
      active: true,
    };
    const existing = byKey.get(key);
    if (existing) {
      const vehicle = vehicles.edit(existing);
      if (sameFields(vehicle, { ...vehicle, ...fields }, VEHICLE_FIELDS)) plan.counts.unchanged++;
      else plan.counts.updated++;
      Object.assign(vehicle, fields);
    } else {
      vehicles.add({
        id: nextId('vehicle'),
        schoolId: context.schoolId,
        number: row.number,
        type: row.type,
        alternateContactName: null,
        alternateContactPhone: null,
        studentIds: [],
        ...fields,
      });
      plan.counts.created++;
    }
  }
  if (errors.length > 0) return { ok: false, errors };
  plan.vehicles = vehicles.result();
  return { ok: true, plan };
};

/** How many temporary ids of each kind a plan holds (the ids to allocate). */
export const newIdCounts = (plan: ImportPlan) => ({
  student: plan.students.create.length,
  user: plan.teachers.create.length + plan.parents.create.length,
  vehicle: plan.vehicles.create.length,
  classroom: plan.classrooms.create.length,
});

/**
 * Swaps a plan's temporary ids (negative) for real ones, in every record and
 * every reference (a student's classroom, a vehicle's and a parent's
 * students, a classroom's teacher). `real(kind, temp)` gives the real id.
 */
export const remapIds = (
  plan: ImportPlan,
  real: (kind: 'student' | 'user' | 'vehicle' | 'classroom', temp: number) => number,
): ImportPlan => {
  const id = (kind: Parameters<typeof real>[0]) => (value: number) => (value < 0 ? real(kind, value) : value);
  const student = id('student');
  const user = id('user');
  const vehicle = id('vehicle');
  const classroom = id('classroom');
  const both = <T>(c: Changes<T>, f: (record: T) => T): Changes<T> => ({
    create: c.create.map(f),
    update: c.update.map(f),
  });
  return {
    counts: plan.counts,
    students: both(plan.students, (s) => ({
      ...s,
      id: student(s.id),
      classroomId: s.classroomId === null ? null : classroom(s.classroomId),
    })),
    teachers: both(plan.teachers, (t) => ({ ...t, id: user(t.id) })),
    parents: both(plan.parents, (p) => ({ ...p, id: user(p.id), studentIds: p.studentIds.map(student) })),
    vehicles: both(plan.vehicles, (v) => ({
      ...v,
      id: vehicle(v.id),
      studentIds: v.studentIds.map(student),
    })),
    classrooms: both(plan.classrooms, (c) => ({
      ...c,
      id: classroom(c.id),
      teacherId: c.teacherId === null ? null : user(c.teacherId),
    })),
    dismissalPlans: plan.dismissalPlans.map((entry) => ({ ...entry, studentId: student(entry.studentId) })),
  };
};
