import { describe, expect, it } from 'vitest';
import { parseRosterCsv, toCsv } from '../src/csv';
import type { Classroom } from '../src/pickup';
import type { QueueEntry, Vehicle } from '../src/queue';
import {
  compareNumbers,
  GRADE_MESSAGE,
  gradeSchema,
  type Student,
  splitName,
  studentStats,
  usernameFromName,
} from '../src/roster';
import {
  busForRoute,
  CSV_TEMPLATES,
  csvTemplate,
  type ImportRow,
  newIdCounts,
  planParentImport,
  planStudentImport,
  planTeacherImport,
  planVehicleImport,
  remapIds,
  TEMPLATE_EXTRAS,
  validateRows,
} from '../src/roster-import';
import { filterOverview, overviewCsvRows, placardsFor, waitBarPercent } from '../src/school-admin';

const room = (id: number, name: string, grade: string, teacherId: number | null = null): Classroom => ({
  id,
  schoolId: 1,
  name,
  grade,
  teacherId,
  active: true,
});
const student = (
  id: number,
  firstName: string,
  lastName: string,
  grade: string,
  extra: Partial<Student> = {},
): Student => ({
  id,
  schoolId: 1,
  firstName,
  lastName,
  grade,
  classroomId: null,
  active: true,
  parentName: null,
  parentPhone: null,
  parentEmail: null,
  notes: null,
  ...extra,
});
const vehicle = (id: number, type: 'car' | 'bus', number: string, extra: Partial<Vehicle> = {}): Vehicle => ({
  id,
  schoolId: 1,
  number,
  type,
  active: true,
  parentName: null,
  parentPhone: null,
  alternateContactName: null,
  alternateContactPhone: null,
  make: null,
  model: null,
  color: null,
  licensePlate: null,
  notes: null,
  studentIds: [],
  ...extra,
});
const rows = <K extends 'students' | 'teachers' | 'parents' | 'vehicles'>(
  kind: K,
  records: Array<Record<string, string>>,
): Array<ImportRow<K>> => {
  const { rows: valid, errors } = validateRows(kind, records);
  expect(errors).toEqual([]);
  return valid;
};

describe('CSV templates and parsing', () => {
  it('builds each template from the specification’s exact columns', () => {
    // Issue 51: the template also shows the optional dismissal column (a file without it still imports).
    expect(csvTemplate('students')).toBe(
      'firstName,lastName,grade,parentName,parentPhone,parentEmail,vehicleNumber,busRoute,notes,dismissal\r\n',
    );
    expect(csvTemplate('teachers')).toBe('firstName,lastName,email,phone,grade,classroom,username\r\n');
    expect(csvTemplate('parents')).toBe(
      'firstName,lastName,email,phone,address,emergencyContact,emergencyPhone,studentNames\r\n',
    );
    expect(csvTemplate('vehicles')).toBe(
      'number,type,make,model,color,licensePlate,parentName,parentPhone,notes\r\n',
    );
  });

  it('reads quoted cells with commas and line breaks, a byte-order mark and loose headers', () => {
    const text =
      '\uFEFFFirst Name,LASTNAME,grade,parentName,parentPhone,parentEmail,vehicleNumber,busRoute,notes\r\n' +
      'Ava,"Smith, Jr",2,,,,,,"line one\nline two"\r\n\r\n';
    const parsed = parseRosterCsv('students', text);
    expect(parsed.errors).toEqual([]);
    expect(parsed.records).toEqual([
      expect.objectContaining({ firstName: 'Ava', lastName: 'Smith, Jr', notes: 'line one\nline two' }),
    ]);
  });

  it('names missing columns on row 1 and an unclosed quote on its row', () => {
    expect(parseRosterCsv('vehicles', 'number,make\r\n1,Ford').errors.map((e) => e.column)).toEqual([
      'type',
      'model',
      'color',
      'licensePlate',
      'parentName',
      'parentPhone',
      'notes',
    ]);
    const header = CSV_TEMPLATES.vehicles.join(',');
    expect(parseRosterCsv('vehicles', `${header}\r\n1,car,"Ford`).errors).toEqual([
      { row: 2, column: null, message: 'A quoted cell is never closed' },
    ]);
    expect(parseRosterCsv('vehicles', `${header}\r\n`).errors).toEqual([
      { row: 2, column: null, message: 'The file has a header row but no data rows' },
    ]);
  });

  it('writes CSV that a spreadsheet never runs as a formula', () => {
    expect(toCsv([['a', '=HYPERLINK("x")', 'b,c', null]])).toBe('a,"\'=HYPERLINK(""x"")","b,c",\r\n');
  });

  it('escapes a formula cell that holds a line break, and every cell that starts with = + - @, tab or CR', () => {
    expect(toCsv([['=HYPERLINK(\n"x")', '-2+3\n+cmd|x']])).toBe(
      '"\'=HYPERLINK(\n""x"")","\'-2+3\n+cmd|x"\r\n',
    );
    expect(toCsv([['+1', '@SUM(A1)', '\t=1', '\r=1', '\n=1', 'a=1', ' =1']])).toBe(
      '"\'+1","\'@SUM(A1)","\'\t=1","\'\r=1","\n=1",a=1," =1"\r\n',
    );
  });

  it('writes each template as toCsv would (its fixed header cells need no escaping)', () => {
    for (const kind of Object.keys(CSV_TEMPLATES) as Array<keyof typeof CSV_TEMPLATES>) {
      expect(csvTemplate(kind)).toBe(toCsv([[...CSV_TEMPLATES[kind], ...TEMPLATE_EXTRAS[kind]]]));
    }
  });
});

describe('row rules', () => {
  it('reports every bad cell with its spreadsheet row', () => {
    const { rows: valid, errors } = validateRows('students', [
      { firstName: 'A', lastName: 'B', grade: '1' },
      { firstName: '', lastName: 'B', grade: '1', parentEmail: 'not-an-email', parentPhone: '12' },
    ]);
    expect(valid).toHaveLength(1);
    expect(errors).toEqual([
      { row: 3, column: 'firstName', message: 'First name is required' },
      { row: 3, column: 'parentPhone', message: 'Parent phone must be a phone number (at least 7 digits)' },
      { row: 3, column: 'parentEmail', message: 'Parent email must be a valid email address' },
    ]);
  });
});

describe('grades', () => {
  it('takes K to 12 and the SIS years, written as the rosters keep them', () => {
    for (const [written, kept] of [
      ['K', 'K'],
      ['k', 'K'],
      ['1', '1'],
      ['04', '4'],
      ['12', '12'],
      [' pk ', 'PK'],
      ['TK', 'TK'],
    ]) {
      expect(gradeSchema.parse(written)).toBe(kept);
    }
  });

  it('refuses a grade that is none, in a CSV row as in a form', () => {
    for (const wrong of ['14', '13', '0', '-1', 'Grade 3', '3rd', 'X']) {
      expect(gradeSchema.safeParse(wrong).error?.issues[0]?.message).toBe(GRADE_MESSAGE);
    }
    const { errors } = validateRows('students', [{ firstName: 'A', lastName: 'B', grade: '14' }]);
    expect(errors).toEqual([{ row: 2, column: 'grade', message: GRADE_MESSAGE }]);
  });
});

describe('planning a students file', () => {
  const context = {
    schoolId: 1,
    students: [student(1, 'Ava', 'Martinez', '2', { classroomId: 10 })],
    classrooms: [room(10, 'Room 12', '2'), room(11, 'Room 3A', '3'), room(12, 'Room 3B', '3')],
    vehicles: [
      vehicle(100, 'car', '101', { studentIds: [1], parentName: 'Jordan' }),
      vehicle(200, 'bus', '3', { parentName: 'Route C' }),
    ],
    parents: [],
  };

  it('creates, updates and leaves alone, matching students on name and grade', () => {
    const outcome = planStudentImport(
      rows('students', [
        { firstName: 'ava', lastName: 'MARTINEZ', grade: '2' },
        { firstName: 'Ava', lastName: 'Martinez', grade: '3' },
      ]),
      context,
    );
    if (!outcome.ok) throw new Error('refused');
    expect(outcome.plan.counts).toEqual({ created: 1, updated: 1, unchanged: 0 });
    expect(outcome.plan.students.update[0]).toMatchObject({ id: 1, firstName: 'ava', classroomId: 10 });
    // Grade 3 has two classrooms: no guess.
    expect(outcome.plan.students.create[0]).toMatchObject({ id: -1, classroomId: null });
  });

  it('links cars (new or registered), buses by route and parents by email or phone', () => {
    const outcome = planStudentImport(
      rows('students', [
        { firstName: 'Ava', lastName: 'Martinez', grade: '2', vehicleNumber: '101', busRoute: 'c' },
        {
          firstName: 'Liam',
          lastName: 'Ng',
          grade: '2',
          vehicleNumber: '900',
          parentName: 'Kim Ng',
          parentPhone: '555-010-9999',
        },
        {
          firstName: 'Mia',
          lastName: 'Ng',
          grade: '2',
          vehicleNumber: '900',
          parentName: 'Kim Ng',
          parentPhone: '(555) 010 9999',
        },
      ]),
      context,
    );
    if (!outcome.ok) throw new Error('refused');
    const plan = outcome.plan;
    expect(plan.counts).toEqual({ created: 2, updated: 0, unchanged: 1 });
    expect(plan.vehicles.create).toEqual([
      expect.objectContaining({ number: '900', parentName: 'Kim Ng', studentIds: [-1, -2] }),
    ]);
    expect(plan.vehicles.update).toEqual([expect.objectContaining({ id: 200, studentIds: [1] })]);
    expect(plan.parents.create).toEqual([
      expect.objectContaining({ firstName: 'Kim', lastName: 'Ng', studentIds: [-1, -2] }),
    ]);
    // New students join the grade's only classroom.
    expect(plan.students.create.map((s) => s.classroomId)).toEqual([10, 10]);
    const real = remapIds(
      plan,
      (kind, temp) => ({ student: 5000, user: 7000, vehicle: 9000, classroom: 1 })[kind] - temp,
    );
    expect(newIdCounts(plan)).toEqual({ student: 2, user: 1, vehicle: 1, classroom: 0 });
    expect(real.vehicles.create[0]).toMatchObject({ id: 9001, studentIds: [5001, 5002] });
    expect(real.parents.create[0]).toMatchObject({ id: 7001, studentIds: [5001, 5002] });
  });

  it('refuses duplicates, unknown bus routes and a classroom without a grade, row by row', () => {
    const outcome = planStudentImport(
      rows('students', [
        { firstName: 'Zoe', lastName: 'Park', grade: '1' },
        { firstName: 'zoe', lastName: 'park', grade: '1' },
        { firstName: 'Leo', lastName: 'Park', grade: '1', busRoute: 'Route Z' },
      ]),
      context,
    );
    expect(outcome).toEqual({
      ok: false,
      errors: [
        { row: 3, column: 'firstName', message: 'Same student as row 2' },
        {
          row: 4,
          column: 'busRoute',
          message: 'No bus runs route Route Z. Add the bus in the Vehicles tab first.',
        },
      ],
    });
  });

  it('finds a bus by number, B-number or route name', () => {
    const buses = [vehicle(1, 'bus', '3', { parentName: 'Route C' })];
    for (const route of ['3', 'B3', 'bus 3', 'Route C', 'c', 'route c'])
      expect(busForRoute(buses, route)?.id).toBe(1);
    expect(busForRoute(buses, '4')).toBeUndefined();
  });
});

describe('planning teachers, parents and vehicles', () => {
  it('matches teachers on username or email, makes usernames, and creates classrooms', () => {
    const outcome = planTeacherImport(
      rows('teachers', [
        { firstName: 'Taylor', lastName: 'Teacher', email: 'TAYLOR@x.example', classroom: 'Room 12' },
        { firstName: 'Maria', lastName: 'Lopez', grade: '1', classroom: 'Room 7' },
        { firstName: 'Maria', lastName: 'Lopez', email: 'm2@x.example', grade: '1', classroom: 'Room 8' },
      ]),
      {
        schoolId: 1,
        teachers: [
          {
            id: 5,
            firstName: 'Taylor',
            lastName: 'Teacher',
            name: 'Taylor Teacher',
            username: 'teacher_demo',
            email: 'taylor@x.example',
            phone: null,
            active: true,
          },
        ],
        classrooms: [room(10, 'Room 12', '2', 5)],
        takenUsernames: new Set(['maria.lopez']),
      },
    );
    // Row 3 has neither email nor username.
    expect(outcome).toEqual({
      ok: false,
      errors: [{ row: 3, column: 'email', message: 'Email or username is required' }],
    });
  });

  it('gives new teachers the first free username', () => {
    const outcome = planTeacherImport(
      rows('teachers', [
        { firstName: 'Maria', lastName: 'Lopez', email: 'a@x.example', grade: '1', classroom: 'Room 7' },
        { firstName: 'María', lastName: 'López', email: 'b@x.example' },
      ]),
      { schoolId: 1, teachers: [], classrooms: [], takenUsernames: new Set(['maria.lopez']) },
    );
    if (!outcome.ok) throw new Error('refused');
    expect(outcome.plan.teachers.create.map((t) => t.username)).toEqual(['maria.lopez2', 'maria.lopez3']);
    expect(outcome.plan.classrooms.create).toEqual([
      expect.objectContaining({ name: 'Room 7', grade: '1', teacherId: -1 }),
    ]);
  });

  it('matches a row’s parent contact only to an account the school made, never a self-registered one', () => {
    const parent = (id: number, email: string, madeBySchoolId?: number) => ({
      id,
      schoolId: 1,
      firstName: 'P',
      lastName: 'Q',
      name: 'P Q',
      username: email,
      email,
      phone: '555 010 2222',
      address: null,
      emergencyContact: null,
      emergencyPhone: null,
      active: true,
      studentIds: [9],
      ...(madeBySchoolId ? { madeBySchoolId } : {}),
    });
    const plan = (email: string) =>
      planStudentImport(
        rows('students', [
          { firstName: 'Ava', lastName: 'Kim', grade: '2', parentName: 'P Q', parentEmail: email },
        ]),
        {
          schoolId: 1,
          students: [],
          classrooms: [],
          vehicles: [],
          parents: [
            parent(50, 'self@x.example'),
            parent(51, 'made@x.example', 1),
            parent(52, 'other@x.example', 2),
          ],
        },
      );
    for (const email of ['self@x.example', 'other@x.example']) {
      expect(plan(email)).toMatchObject({
        ok: true,
        plan: { parents: { create: [expect.objectContaining({ email, madeBySchoolId: 1 })], update: [] } },
      });
    }
    expect(plan('made@x.example')).toMatchObject({
      ok: true,
      plan: { parents: { create: [], update: [expect.objectContaining({ id: 51, studentIds: [9, -1] })] } },
    });
  });

  it('links parents to students by name, with the grade when two share a name', () => {
    const students = [
      student(1, 'Ava', 'Martinez', '2'),
      student(2, 'Ava', 'Martinez', '4'),
      student(3, 'Leo', 'Kim', 'K'),
    ];
    const plan = (names: string) =>
      planParentImport(
        rows('parents', [{ firstName: 'P', lastName: 'Q', phone: '555 010 1111', studentNames: names }]),
        {
          schoolId: 1,
          parents: [],
          students,
        },
      );
    expect(plan('Leo Kim; ava martinez (4)')).toMatchObject({
      ok: true,
      plan: { parents: { create: [expect.objectContaining({ studentIds: [3, 2] })] } },
    });
    expect(plan('Ava Martinez')).toEqual({
      ok: false,
      errors: [
        {
          row: 2,
          column: 'studentNames',
          message: '2 students are named Ava Martinez; add the grade, e.g. Ava Martinez (2)',
        },
      ],
    });
  });

  it('matches vehicles on type and number and keeps their students', () => {
    const outcome = planVehicleImport(
      rows('vehicles', [
        { number: '101', type: '', make: 'Ford' },
        { number: '101', type: 'BUS' },
      ]),
      { schoolId: 1, vehicles: [vehicle(1, 'car', '101', { studentIds: [7] })] },
    );
    if (!outcome.ok) throw new Error('refused');
    expect(outcome.plan.counts).toEqual({ created: 1, updated: 1, unchanged: 0 });
    expect(outcome.plan.vehicles.update).toEqual([
      expect.objectContaining({ id: 1, make: 'Ford', studentIds: [7] }),
    ]);
    expect(outcome.plan.vehicles.create).toEqual([expect.objectContaining({ type: 'bus', number: '101' })]);
  });
});

describe('names, counts and placards', () => {
  it('splits names and makes usernames', () => {
    expect(splitName('Mary Ann  Lee')).toEqual({ firstName: 'Mary Ann', lastName: 'Lee' });
    expect(splitName('Cher')).toEqual({ firstName: 'Cher', lastName: '' });
    expect(usernameFromName('Zoë', "O'Neil")).toBe('zoe.oneil');
  });

  it('counts students waiting, picked up (not queued again) and in school', () => {
    expect(studentStats(10, [1, 2, 2, 3], [3, 4, 5])).toEqual({
      total: 10,
      inSchool: 5,
      waiting: 3,
      pickedUp: 2,
    });
  });

  it('sorts placard numbers as people count, cars then buses, 10 and 5 unless all are asked for', () => {
    const fleet = [
      ...Array.from({ length: 12 }, (_, i) => vehicle(i, 'car', String(120 - i * 10))),
      vehicle(50, 'car', '2', { active: false }),
      ...['10', '2', '1', '3', '4', '5'].map((n, i) => vehicle(60 + i, 'bus', n)),
    ];
    const placards = placardsFor(fleet);
    expect(placards.filter((p) => p.type === 'car').map((p) => p.number)).toEqual([
      '10',
      '20',
      '30',
      '40',
      '50',
      '60',
      '70',
      '80',
      '90',
      '100',
    ]);
    expect(placards.filter((p) => p.type === 'bus').map((p) => p.label)).toEqual([
      'B1',
      'B2',
      'B3',
      'B4',
      'B5',
    ]);
    expect(placardsFor(fleet, true)).toHaveLength(18);
    expect(compareNumbers('A2', 'A10')).toBeLessThan(0);
  });

  it('fills the wait bar to wait minutes over 10, capped at 100%', () => {
    expect(waitBarPercent(150)).toBe(25);
    expect(waitBarPercent(3600)).toBe(100);
  });

  it('filters and exports the queue overview', () => {
    const entry = (
      id: string,
      type: 'car' | 'bus',
      status: QueueEntry['status'],
      batchId: number | null,
    ): QueueEntry => ({
      id,
      sessionId: 1,
      schoolId: 1,
      vehicleId: null,
      vehicleNumber: id,
      vehicleType: type,
      batchId,
      batchNumber: batchId,
      version: 1,
      status,
      position: null,
      entryTime: '2025-01-01T15:00:00.000Z',
      queueTime: '2025-01-01T15:00:00.000Z',
      exitTime: null,
      vehicle: null,
      students: [{ id: 1, firstName: 'Ava', lastName: 'Martinez', grade: '2', classroomId: null }],
    });
    const entries = [
      entry('1', 'car', 'waiting', null),
      entry('2', 'car', 'waiting', 3),
      entry('3', 'bus', 'overflow', null),
    ];
    expect(filterOverview(entries, 'car', 'all').map((e) => e.id)).toEqual(['1', '2']);
    expect(filterOverview(entries, 'all', 'batched').map((e) => e.id)).toEqual(['2']);
    expect(filterOverview(entries, 'bus', 'overflow').map((e) => e.id)).toEqual(['3']);
    const csv = overviewCsvRows(entries, Date.parse('2025-01-01T15:02:05.000Z'));
    expect(csv[0]).toEqual([
      'ID',
      'Type',
      'Family/Route',
      'Children',
      'Status',
      'Batch',
      'Queued At',
      'Wait Time',
    ]);
    expect(csv[3]).toEqual([
      'B3',
      'Bus',
      '—',
      'Ava Martinez',
      'Overflow',
      '',
      '2025-01-01T15:00:00.000Z',
      '02:05',
    ]);
  });
});
