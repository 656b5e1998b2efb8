import type { Role, User } from '@curbside/domain';
import { type Db, schools } from '@curbside/store';
import { createSession } from '../src/services/sessions';

/**
 * A new school with a staff member of `role` and an afternoon pickup session
 * running for the next hour: what a service test needs to queue cars.
 */
export const schoolWithSession = async (
  db: Db,
  name: string,
  role: Role,
  batchCapacity?: { car: number; bus: number },
) => {
  const school = await schools.create(db, {
    name,
    districtId: 1,
    active: true,
    sandbox: false,
    ...(batchCapacity ? { batchCapacity } : {}),
  });
  const user: User = {
    id: 1,
    name: 'Tester',
    username: 'tester',
    email: null,
    phone: null,
    role,
    active: true,
    schoolId: school.id,
    districtId: 1,
  };
  const now = Date.now();
  const session = await createSession(user, {
    name: 'Afternoon Pickup',
    type: 'afternoon_pickup',
    startTime: new Date(now).toISOString(),
    endTime: new Date(now + 3_600_000).toISOString(),
  });
  return { school, user, session };
};
