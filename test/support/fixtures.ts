import type { StaffRole } from '@curbside/domain';
import { hashPassword } from '@curbside/functions/lib/passwords';
import { classrooms, type Db, pickupCodes, schools, students, users } from '@curbside/store';
import { Client } from './server';

const passwordHash = hashPassword('demo1234');

/** A staff (or parent) account created straight in the store, password `demo1234`. */
export const createStaff = async (
  db: Db,
  fields: {
    username: string;
    role: StaffRole | 'parent';
    schoolId: number | null;
    districtId: number | null;
    /** Signed in with a one-time password (`demo1234`), not yet replaced. */
    mustChangePassword?: boolean;
  },
) =>
  users.create(db, {
    name: fields.username,
    email: null,
    phone: null,
    active: true,
    ...fields,
    passwordHash: await passwordHash,
  });

/** A live school in district 1 with one account per staff role, `{prefix}_{role}`. */
export const createSchoolWithStaff = async (db: Db, prefix: string, sandbox = false) => {
  const school = await schools.create(db, { name: `${prefix} School`, districtId: 1, active: true, sandbox });
  for (const role of ['front_queue_wrangler', 'teacher', 'school_admin'] as const) {
    await createStaff(db, { username: `${prefix}_${role}`, role, schoolId: school.id, districtId: 1 });
  }
  return school;
};

export const sessionBody = (offsetMs = 0, lengthMs = 2 * 60 * 60 * 1000) => {
  const start = Date.now() + offsetMs;
  return {
    name: 'Afternoon Pickup',
    type: 'afternoon_pickup',
    startTime: new Date(start).toISOString(),
    endTime: new Date(start + lengthMs).toISOString(),
    notes: '',
  };
};

/** A code of the demo school that expired a minute ago, as if generated 11 minutes ago. */
export const claimExpiredCode = (db: Db, code: string, studentId: number) =>
  pickupCodes.claim(
    db,
    {
      code,
      studentId,
      schoolId: 1,
      createdAt: new Date(Date.now() - 11 * 60_000).toISOString(),
      expiresAt: new Date(Date.now() - 60_000).toISOString(),
      usedAt: null,
    },
    null,
  );

/**
 * The demo school's students of one classroom, by its name: Room 12 is
 * teacher_demo's, Rooms 7, 15 and 21 other teachers', Rooms 4 and 23 have none.
 */
export const demoStudentsOf = async (db: Db, roomName: string) => {
  const room = (await classrooms.listBySchool(db, 1)).find((candidate) => candidate.name === roomName);
  if (!room) throw new Error(`The demo school has no ${roomName}`);
  return students.listByClassroom(db, 1, room.id);
};

/** The demo school's settings as the seed leaves them (a body for `PUT /api/schools/1/settings`). */
export const demoSchoolSettings = {
  carBatchCapacity: 8,
  busBatchCapacity: 4,
  defaultSessionMinutes: 120,
  languages: ['en', 'es'],
  recordRetentionDays: 400,
};

/**
 * A new parent following a student through one of the school's invites (made
 * by `staff`, a client of that school's staff), signed in: the way a family
 * joins. `username` names the new account.
 */
export const parentThroughInvite = async (
  baseUrl: string,
  staff: Client,
  studentId: number,
  username: string,
) => {
  const invites = (await staff.post('/api/parent-invites', { studentIds: [studentId] })).body.invites;
  const token = new URL(invites[0].url).searchParams.get('t');
  const parent = new Client(baseUrl);
  const answer = await parent.post('/api/parent-invites/accept', {
    token,
    username,
    password: 'secret-pass-1',
    firstName: 'Pat',
    lastName: username,
    phone: '555-0102',
  });
  if (answer.status !== 201)
    throw new Error(`Could not accept: ${answer.status} ${JSON.stringify(answer.body)}`);
  return parent;
};

/** The token of a private link (`?t=`: a bus, display or invite link). */
export const tokenOf = (url: string) => new URL(url).searchParams.get('t') as string;
