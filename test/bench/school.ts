/**
 * The benchmark's own school, written straight through the store modules (no
 * demo seed): a district, one live school, staff with classrooms, students and
 * registered cars linked to them, and parents following one child each
 * (signed in: their sessions are written too). Writes run in parallel (bounded): each
 * entity module allocates its id and puts its item, so the key design stays
 * inside the store. One scrypt hash serves every account.
 */
import { randomBytes } from 'node:crypto';
import type { StaffRole } from '@curbside/domain';
import { hashPassword } from '@curbside/functions/lib/passwords';
import {
  authSessions,
  classrooms,
  type Db,
  districts,
  parentLinks,
  schools,
  students,
  users,
  vehicles,
} from '@curbside/store';
import { mapBounded, seededRandom } from './stats';
import type { SchoolPlan } from './types';
import { wayOfIndex } from './ways';

export const BENCH_PASSWORD = 'bench-rush-1234';
const WRITE_CONCURRENCY = 24;

/** Sizes at `scale` (1 = about 2,000 students, 800 cars, 40 staff). */
export const planFor = (scale: number): SchoolPlan => {
  const front = Math.max(4, Math.round(4 * scale));
  const back = Math.max(2, Math.round(2 * scale));
  return {
    students: Math.max(20, Math.round(2000 * scale)),
    cars: Math.max(8, Math.round(800 * scale)),
    probeCars: Math.max(5, Math.round(20 * Math.min(scale, 1))),
    classrooms: Math.max(2, Math.round(80 * scale)),
    front,
    back,
    teachers: Math.max(2, Math.round(40 * scale) - front - back),
    parents: Math.max(5, Math.round(200 * scale)),
  };
};

export interface StaffAccount {
  username: string;
  role: StaffRole;
  userId: number;
}

export interface Car {
  number: string;
  studentIds: number[];
}

/** A parent signed in on their phone (a session made in the store: no password hash per parent). */
export interface ParentAccount {
  userId: number;
  studentId: number;
  token: string;
}

export interface BenchSchool {
  schoolId: number;
  parents: ParentAccount[];
  front: StaffAccount[];
  back: StaffAccount[];
  teachers: Array<StaffAccount & { classroomIds: number[] }>;
  /** The school's admin, who reads the session's report after the rush (no screen of the rush). */
  admin: StaffAccount;
  cars: Car[];
  probeCars: Car[];
  /** The students who ride a bus (30%) and who walk (10%) by their weekly plans (`ways.ts`). */
  busRiders: number[];
  walkers: number[];
  studentCount: number;
  classroomCount: number;
  /** Every student's classroom (what a release event does not say). */
  classroomOf: ReadonlyMap<number, number>;
  writes: number;
  ms: number;
}

const FIRST = [
  'Ava',
  'Liam',
  'Mia',
  'Noah',
  'Emma',
  'Lucas',
  'Sofia',
  'Ethan',
  'Chloe',
  'Mason',
  'Zoe',
  'Leo',
];
const LAST = ['Martinez', 'Johnson', 'Nguyen', 'Patel', 'Brown', 'Garcia', 'Kim', 'Okafor', 'Rossi', 'Cohen'];
const MAKES: ReadonlyArray<[string, string, string]> = [
  ['Toyota', 'Sienna', 'Silver'],
  ['Honda', 'Odyssey', 'Blue'],
  ['Ford', 'Explorer', 'Black'],
  ['Subaru', 'Outback', 'Green'],
  ['Tesla', 'Model Y', 'White'],
  ['Chevrolet', 'Tahoe', 'Red'],
];
/** Children per car: 1.5 on average (the 1,200 car riders of 2,000 students in 800 cars). */
const FAMILY_SIZES = [2, 1];

export const seedSchool = async (db: Db, plan: SchoolPlan, prefix: string): Promise<BenchSchool> => {
  const started = performance.now();
  let writes = 0;
  const random = seededRandom(20_240_901);
  const passwordHash = await hashPassword(BENCH_PASSWORD);

  const district = await districts.create(db, { name: `${prefix} District`, active: true, sandbox: false });
  const school = await schools.create(db, {
    name: `${prefix} Elementary`,
    districtId: district.id,
    active: true,
    sandbox: false,
  });
  writes += 2;

  const roles: Array<{ role: StaffRole; count: number; name: string }> = [
    { role: 'front_queue_wrangler', count: plan.front, name: 'front' },
    { role: 'back_queue_wrangler', count: plan.back, name: 'back' },
    { role: 'teacher', count: plan.teachers, name: 'teacher' },
  ];
  const wanted = roles.flatMap(({ role, count, name }) =>
    Array.from({ length: count }, (_, i) => ({ role, username: `${prefix}_${name}_${i + 1}` })),
  );
  const staff = await mapBounded(wanted, WRITE_CONCURRENCY, async ({ role, username }) => {
    const user = await users.create(db, {
      name: username,
      username,
      email: null,
      phone: null,
      role,
      active: true,
      schoolId: school.id,
      districtId: district.id,
      passwordHash,
    });
    return { username, role, userId: user.id };
  });
  const adminUser = await users.create(db, {
    name: `${prefix} Admin`,
    username: `${prefix}_admin`,
    email: null,
    phone: null,
    role: 'school_admin',
    active: true,
    schoolId: school.id,
    districtId: district.id,
    passwordHash,
  });
  const admin: StaffAccount = { username: `${prefix}_admin`, role: 'school_admin', userId: adminUser.id };
  writes += staff.length + 1;
  const teachers = staff.filter((account) => account.role === 'teacher');

  // Classrooms round-robin over the teachers, grades K to 5.
  const grades = ['K', '1', '2', '3', '4', '5'];
  const rooms = await mapBounded(
    Array.from({ length: plan.classrooms }, (_, i) => i),
    WRITE_CONCURRENCY,
    (i) =>
      classrooms.create(db, {
        schoolId: school.id,
        name: `Room ${101 + i}`,
        grade: grades[i % grades.length] as string,
        teacherId: teachers[i % teachers.length]?.userId ?? null,
      }),
  );
  writes += rooms.length;

  // Siblings sit in different classrooms: student i goes to room (i * 7) mod rooms.
  const kids = await mapBounded(
    Array.from({ length: plan.students }, (_, i) => i),
    WRITE_CONCURRENCY,
    (i) => {
      const room = rooms[(i * 7) % rooms.length]!;
      return students.create(db, {
        schoolId: school.id,
        firstName: FIRST[i % FIRST.length] as string,
        lastName: LAST[Math.floor(i / FIRST.length) % LAST.length] as string,
        grade: room.grade,
        classroomId: room.id,
      });
    },
  );
  writes += kids.length;

  // A share of the school as a real one has (`ways.ts`): every car rider rides in one family car
  // (the probe cars carry two children each); the bus riders' and walkers' plans are written once
  // the buses exist (`startBuses`).
  const carRiders = kids.filter((_, i) => wayOfIndex(i) === 'car');
  const families: number[][] = [];
  for (let next = 0, f = 0; next < carRiders.length; f++) {
    const size = Math.max(
      1,
      Math.min(FAMILY_SIZES[f % FAMILY_SIZES.length] as number, carRiders.length - next),
    );
    families.push(carRiders.slice(next, next + size).map((kid) => kid.id));
    next += size;
  }
  const carPlans: Car[] = Array.from({ length: plan.cars }, (_, i) => ({
    number: String(1001 + i),
    studentIds: families[i % families.length] ?? [],
  }));
  // More families than cars (small scales): the rest share the last cars.
  for (let f = plan.cars; f < families.length; f++) {
    carPlans[f % plan.cars]?.studentIds.push(...(families[f] ?? []));
  }
  const probePlans: Car[] = Array.from({ length: plan.probeCars }, (_, i) => ({
    number: String(9001 + i),
    studentIds: (families[i] ?? []).slice(0, 2),
  }));
  await mapBounded([...carPlans, ...probePlans], WRITE_CONCURRENCY, async (car, i) => {
    const [make, model, color] = MAKES[i % MAKES.length] as [string, string, string];
    const lastName = LAST[i % LAST.length] as string;
    await vehicles.create(db, {
      schoolId: school.id,
      number: car.number,
      type: 'car',
      active: true,
      parentName: `${['Jordan', 'Casey', 'Riley', 'Morgan'][i % 4]} ${lastName}`,
      parentPhone: `(555) ${String(100 + (i % 900)).padStart(3, '0')}-${String(1000 + i).slice(-4)}`,
      alternateContactName: random() < 0.1 ? null : `${['Sam', 'Drew', 'Avery'][i % 3]} ${lastName}`,
      alternateContactPhone: `(555) 020-${String(1000 + i).slice(-4)}`,
      make,
      model,
      color,
      licensePlate: `CRB-${1000 + i}`,
      notes: null,
      studentIds: car.studentIds,
    });
  });
  writes += carPlans.length + probePlans.length;

  // Parents follow one child each, in cars spread over the whole rush.
  const followed = Array.from({ length: plan.parents }, (_, i) => {
    const car = carPlans[Math.floor((i * carPlans.length) / plan.parents)];
    return car?.studentIds[0];
  }).filter((id): id is number => id !== undefined);
  const parentAccounts = await mapBounded(followed, WRITE_CONCURRENCY, async (studentId, i) => {
    const username = `${prefix}_parent_${i + 1}`;
    const user = await users.create(db, {
      name: `Parent ${i + 1}`,
      username,
      email: null,
      phone: null,
      role: 'parent',
      active: true,
      schoolId: school.id,
      districtId: null,
      studentIds: [studentId],
      passwordHash,
    });
    await parentLinks.link(db, user.id, school.id, studentId);
    const token = `${user.id}-${randomBytes(32).toString('base64url')}`;
    await authSessions.put(db, token, {
      userId: user.id,
      expiresAt: new Date(Date.now() + 12 * 60 * 60 * 1000).toISOString(),
    });
    return { userId: user.id, studentId, token };
  });
  writes += parentAccounts.length * 4;

  const roomsOf = (teacherId: number) =>
    rooms.filter((room) => room.teacherId === teacherId).map((r) => r.id);
  return {
    schoolId: school.id,
    parents: parentAccounts,
    front: staff.filter((account) => account.role === 'front_queue_wrangler'),
    back: staff.filter((account) => account.role === 'back_queue_wrangler'),
    teachers: teachers.map((teacher) => ({ ...teacher, classroomIds: roomsOf(teacher.userId) })),
    admin,
    cars: carPlans,
    probeCars: probePlans,
    busRiders: kids.filter((_, i) => wayOfIndex(i) === 'bus').map((kid) => kid.id),
    walkers: kids.filter((_, i) => wayOfIndex(i) === 'walker').map((kid) => kid.id),
    studentCount: kids.length,
    classroomCount: rooms.length,
    classroomOf: new Map(kids.map((kid) => [kid.id, kid.classroomId as number])),
    // Each entity is an id counter update plus its item (users: a two-item transaction).
    writes: writes * 2,
    ms: performance.now() - started,
  };
};
