import type { StaffRole } from '@curbside/domain';
import { hashPassword } from '@curbside/functions/lib/passwords';
import { type Db, pickupCodes, schools, users } from '@curbside/store';
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
    password: 'secret1',
    firstName: 'Pat',
    lastName: username,
    phone: '555-0102',
  });
  if (answer.status !== 201)
    throw new Error(`Could not accept: ${answer.status} ${JSON.stringify(answer.body)}`);
  return parent;
};
