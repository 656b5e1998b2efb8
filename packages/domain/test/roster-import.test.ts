import { describe, expect, it } from 'vitest';
import {
  busForRoute,
  newIdCounts,
  planParentImport,
  planStudentImport,
  planTeacherImport,
  planVehicleImport,
  remapIds,
} from '../src/roster-import';
import { room, rows, student, vehicle } from './roster-fixtures';

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
