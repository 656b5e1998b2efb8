import { DEFAULT_RETENTION_DAYS, everyDay, SCHEDULE, type StaffRole } from '@curbside/domain';
import { hashPassword } from '@curbside/functions/lib/passwords';
import {
  classrooms,
  cleverLinks,
  type Db,
  dismissalPlans,
  districts,
  NO_PASSWORD,
  parentLinks,
  parents,
  schools,
  students,
  users,
  vehicles,
} from '@curbside/store';

/** The demo accounts (DESIGN.md): password `demo1234`. Local seed only; never deployed. */
export const DEMO_PASSWORD = 'demo1234';

export const DEMO_ACCOUNTS: ReadonlyArray<{ username: string; name: string; role: StaffRole | 'parent' }> = [
  { username: 'front_demo', name: 'Frankie Front', role: 'front_queue_wrangler' },
  { username: 'back_demo', name: 'Bailey Back', role: 'back_queue_wrangler' },
  { username: 'teacher_demo', name: 'Taylor Teacher', role: 'teacher' },
  { username: 'admin_demo', name: 'Alex Admin', role: 'school_admin' },
  { username: 'district_demo', name: 'Dana District', role: 'district_admin' },
  { username: 'super_demo', name: 'Sam Super', role: 'super_admin' },
  { username: 'parent_demo', name: 'Pat Parent', role: 'parent' },
];

const DEMO_DISTRICT = 'Demo Unified School District';

export const INCOMPLETE_SEED =
  'The demo data is incomplete: an earlier start stopped while seeding it, so some demo accounts or ' +
  'students may be missing. Stop Curbside, delete the .data folder and start again.';

/** The seed's last write is the demo parent's link to a child: present only when it ran to the end. */
const seedFinished = async (db: Db) => {
  const parent = await users.findCredentials(db, 'parent_demo', 'parent');
  return parent !== undefined && (await parentLinks.childrenOf(db, parent.user.id)).length > 0;
};

/** The demo school's time zone (issue 51). */
export const DEMO_TIME_ZONE = 'America/Chicago';

/**
 * Seeds the demo district on an empty table: one district with a live demo
 * school and a sandboxed second school, and the demo accounts. Runs only
 * when district 1 does not exist yet, so a restart never seeds twice.
 */
export const seedIfEmpty = async (db: Db): Promise<boolean> => {
  const existing = await districts.get(db, 1);
  if (existing) {
    // A district of someone's own (`npm run admin -- create-district`) is no demo seed stopped halfway.
    if (existing.name === DEMO_DISTRICT && !(await seedFinished(db))) console.warn(INCOMPLETE_SEED);
    return false;
  }

  // The demo district's schools keep the demo's day in Chicago (issue 51).
  const district = await districts.create(db, {
    name: DEMO_DISTRICT,
    active: true,
    sandbox: false,
    timeZone: DEMO_TIME_ZONE,
  });
  const live = await schools.create(db, {
    name: 'Lincoln Elementary',
    districtId: district.id,
    active: true,
    sandbox: false,
    timeZone: DEMO_TIME_ZONE,
  });
  await schools.create(db, {
    name: 'Riverside Elementary',
    districtId: district.id,
    active: true,
    sandbox: true,
    timeZone: DEMO_TIME_ZONE,
  });

  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const ids: Record<string, number> = {};
  for (const account of DEMO_ACCOUNTS) {
    const schoolLevel =
      account.role !== 'district_admin' && account.role !== 'super_admin' && account.role !== 'parent';
    const user = await users.create(db, {
      name: account.name,
      username: account.username,
      email: `${account.username}@curbside.example`,
      phone: '(555) 010-0000',
      role: account.role,
      active: true,
      schoolId: schoolLevel ? live.id : null,
      districtId: account.role === 'super_admin' || account.role === 'parent' ? null : district.id,
      passwordHash,
    });
    ids[account.username] = user.id;
  }
  // Independent writes go out together: the seed runs before every test file.
  const roomTeachers = await Promise.all(
    ROOM_TEACHERS.map(([firstName, lastName]) =>
      users.create(db, {
        name: `${firstName} ${lastName}`,
        firstName,
        lastName,
        username: `${firstName}.${lastName}`.toLowerCase(),
        email: `${firstName}.${lastName}@lincoln.example`.toLowerCase(),
        phone: '(555) 010-0300',
        role: 'teacher',
        active: true,
        schoolId: live.id,
        districtId: district.id,
        passwordHash,
      }),
    ),
  );
  const families = await seedCarLine(db, live.id, [
    ids.teacher_demo as number,
    ...roomTeachers.map((teacher) => teacher.id),
  ]);
  // A parent account for every car family but the first, whose parent is parent_demo.
  await Promise.all(
    families.slice(1).map((family) => {
      const [firstName = 'Parent', lastName = 'Family'] = family.parentName.split(' ');
      return users
        .create(db, {
          name: family.parentName,
          firstName,
          lastName,
          username: `${firstName}.${lastName}.${family.number}`.toLowerCase(),
          email: `${firstName}.${lastName}.${family.number}@family.example`.toLowerCase(),
          phone: family.parentPhone,
          role: 'parent',
          active: true,
          schoolId: live.id,
          districtId: null,
          madeBySchoolId: live.id,
          studentIds: family.children,
          passwordHash: NO_PASSWORD,
        })
        .then((parent) =>
          Promise.all(family.children.map((child) => parentLinks.link(db, parent.id, live.id, child))),
        );
    }),
  );
  const firstChild = families[0]?.children[0] as number;
  await parents.joinSchool(db, ids.parent_demo as number, live.id, firstChild);
  // Last: seedFinished looks for this link.
  await parentLinks.link(db, ids.parent_demo as number, live.id, firstChild);
  return true;
};

/** Teachers of Rooms 7, 15 and 21 (Room 12 is teacher_demo's; Rooms 4 and 23 have none). */
const ROOM_TEACHERS: ReadonlyArray<[string, string]> = [
  ['Maria', 'Lopez'],
  ['David', 'Chen'],
  ['Grace', 'Owens'],
];

export const FIRST_NAMES = [
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
export const LAST_NAMES = [
  'Martinez',
  'Johnson',
  'Nguyen',
  'Patel',
  'Brown',
  'Garcia',
  'Kim',
  'Okafor',
  'Rossi',
  'Cohen',
];
const CARS: ReadonlyArray<[string, string, string]> = [
  ['Toyota', 'Sienna', 'Silver'],
  ['Honda', 'Odyssey', 'Blue'],
  ['Ford', 'Explorer', 'Black'],
  ['Subaru', 'Outback', 'Green'],
  ['Tesla', 'Model Y', 'White'],
  ['Chevrolet', 'Tahoe', 'Red'],
];

/**
 * Six classrooms (Room 12, grade 2, taught by teacher_demo; Rooms 7, 15 and
 * 21 by the other teachers), 60 students spread over them; 24 families with a
 * car (cars 101–124, one to three children each, two families without an
 * alternate contact), five buses (1–5) for the rest, and a few students
 * walking (no vehicle); the bus riders' and walkers' weekly plans say so
 * (issue 51). Answers the car families.
 */
const seedCarLine = async (
  db: Db,
  schoolId: number,
  teacherIds: readonly number[],
): Promise<Array<{ number: string; parentName: string; parentPhone: string; children: number[] }>> => {
  const rooms = [];
  const [own = null, ...others] = teacherIds;
  for (const [name, grade, teacher] of [
    ['Room 12', '2', own],
    ['Room 4', 'K', null],
    ['Room 7', '1', others[0] ?? null],
    ['Room 15', '3', others[1] ?? null],
    ['Room 21', '4', others[2] ?? null],
    ['Room 23', '5', null],
  ] as const) {
    rooms.push(await classrooms.create(db, { schoolId, name, grade, teacherId: teacher }));
  }
  const lastNameOf = (i: number) =>
    LAST_NAMES[Math.floor(i / FIRST_NAMES.length) % LAST_NAMES.length] as string;
  // Car families: family f has (f mod 3) + 1 children, in student order; the first child names the family.
  const familyOf: Array<{ parentName: string; parentPhone: string }> = [];
  for (let family = 0, first = 0; family < 24; first += (family % 3) + 1, family++) {
    const contact = {
      parentName: `${['Jordan', 'Casey', 'Riley', 'Morgan'][family % 4]} ${lastNameOf(first)}`,
      parentPhone: `(555) 01${String(family).padStart(2, '0')}-2000`,
    };
    for (let k = 0; k <= family % 3; k++) familyOf[first + k] = contact;
  }
  const kids = [];
  for (let i = 0; i < 60; i++) {
    kids.push(
      await students.create(db, {
        schoolId,
        firstName: FIRST_NAMES[i % FIRST_NAMES.length] as string,
        lastName: lastNameOf(i),
        grade: rooms[i % rooms.length]?.grade as string,
        classroomId: rooms[i % rooms.length]?.id ?? null,
        // The parent's contact is on file with each child of a car family (as the students template has it).
        ...familyOf[i],
      }),
    );
  }
  let next = 0;
  const families = [];
  const registrations: Array<Promise<unknown>> = [];
  for (let family = 0; family < 24; family++) {
    const size = (family % 3) + 1;
    const children = kids.slice(next, next + size);
    next += size;
    const [make, model, color] = CARS[family % CARS.length] as [string, string, string];
    const lastName = children[0]?.lastName ?? 'Family';
    const parentName = `${['Jordan', 'Casey', 'Riley', 'Morgan'][family % 4]} ${lastName}`;
    const parentPhone = `(555) 01${String(family).padStart(2, '0')}-2000`;
    families.push({
      number: String(101 + family),
      parentName,
      parentPhone,
      children: children.map((child) => child.id),
    });
    registrations.push(
      vehicles.create(db, {
        schoolId,
        number: String(101 + family),
        type: 'car',
        active: true,
        parentName,
        parentPhone,
        alternateContactName:
          family % 12 === 5 ? null : `${['Sam', 'Drew', 'Avery'][family % 3]} ${lastName}`,
        alternateContactPhone: family % 12 === 5 ? null : `(555) 02${String(family).padStart(2, '0')}-3000`,
        make,
        model,
        color,
        licensePlate: `CRB-${1000 + family}`,
        notes: null,
        studentIds: children.map((child) => child.id),
      }),
    );
  }
  const riders = kids.slice(next, kids.length - 4);
  const walkers = kids.slice(kids.length - 4);
  const busIds: number[] = [];
  for (let bus = 1; bus <= 5; bus++) {
    registrations.push(
      vehicles
        .create(db, {
          schoolId,
          number: String(bus),
          type: 'bus',
          active: true,
          parentName: `Route ${String.fromCharCode(64 + bus)}`,
          parentPhone: null,
          alternateContactName: null,
          alternateContactPhone: null,
          make: 'Blue Bird',
          model: 'Vision',
          color: 'Yellow',
          licensePlate: `BUS-${bus}`,
          notes: null,
          studentIds: riders.filter((_, i) => i % 5 === bus - 1).map((child) => child.id),
        })
        .then((vehicle) => {
          busIds[bus - 1] = vehicle.id;
        }),
    );
  }
  await Promise.all(registrations);
  // Their ways home (issue 51): the bus riders ride their bus, the last four walk, every school day.
  await dismissalPlans.setMany(
    db,
    [
      ...riders.map((child, i) => ({
        schoolId,
        studentId: child.id,
        plan: everyDay({ mode: 'bus', vehicleId: busIds[i % 5] as number }),
        before: undefined,
      })),
      ...walkers.map((child) => ({
        schoolId,
        studentId: child.id,
        plan: everyDay({ mode: 'walker' }),
        before: undefined,
      })),
    ],
    SCHEDULE,
    DEFAULT_RETENTION_DAYS,
  );
  return families;
};

/**
 * The demo's Clever: the super admin's assignment of the fake Clever's
 * district to the demo district, made for them, so `district_demo` imports
 * it at once. Only the seeded demo district, and only while neither is
 * assigned to anything (a later choice of the super admin stands).
 */
export const assignDemoClever = async (db: Db, cleverDistrictId: string): Promise<boolean> => {
  const demo = await districts.get(db, 1);
  if (demo?.name !== DEMO_DISTRICT || demo.cleverId) return false;
  if ((await cleverLinks.districtOf(db, cleverDistrictId)) !== undefined) return false;
  await cleverLinks.linkDistrict(db, demo.id, cleverDistrictId);
  return true;
};
