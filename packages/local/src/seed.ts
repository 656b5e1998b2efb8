import type { StaffRole } from '@curbside/domain';
import { hashPassword } from '@curbside/functions/lib/passwords';
import { type Db, districts, schools, users } from '@curbside/store';

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

/**
 * Seeds the demo district on an empty table: one district with a live demo
 * school and a sandboxed second school, and the demo accounts. Runs only
 * when district 1 does not exist yet, so a restart never seeds twice.
 */
export const seedIfEmpty = async (db: Db): Promise<boolean> => {
  const existing = await districts.get(db, 1);
  if (existing) return false;

  const district = await districts.create(db, {
    name: 'Demo Unified School District',
    active: true,
    sandbox: false,
  });
  const live = await schools.create(db, {
    name: 'Lincoln Elementary',
    districtId: district.id,
    active: true,
    sandbox: false,
  });
  await schools.create(db, {
    name: 'Riverside Elementary',
    districtId: district.id,
    active: true,
    sandbox: true,
  });

  const passwordHash = await hashPassword(DEMO_PASSWORD);
  for (const account of DEMO_ACCOUNTS) {
    const schoolLevel =
      account.role !== 'district_admin' && account.role !== 'super_admin' && account.role !== 'parent';
    await users.create(db, {
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
  }
  return true;
};
