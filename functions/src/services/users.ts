import type { User } from '@curbside/domain';
import { users } from '@curbside/store';
import { db } from '../lib/context';

/** School users for school staff; a district admin without a school gets the district's. */
export const listUsers = async (user: User): Promise<User[]> => {
  if (user.schoolId !== null) return users.listBySchool(db, user.schoolId);
  if (user.districtId !== null) return users.listByDistrict(db, user.districtId);
  return [];
};
