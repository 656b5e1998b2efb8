import { ForbiddenError, type School, type User, ValidationError } from '@curbside/domain';
import { districts } from '@curbside/store';
import { db } from '../../lib/context';
import { readSchool } from '../tenancy';

/** What the route middleware answers for writes to a sandboxed school. */
export const READ_ONLY_MESSAGE = 'Read-only mode: this school is in sandbox mode. Changes are not allowed.';

/**
 * The school whose roster a request reads or writes: the caller's own, or
 * with `?schoolId=` one a district admin (their district) or super admin
 * oversees; another tenant's school answers 404. A write to a sandboxed
 * school (or one in a sandboxed district) is refused for all but super
 * admins: the route middleware checks the caller's own school, this checks
 * the school picked with `?schoolId=`.
 */
/** Whether the school is read-only for this user: sandboxed (or its district), and the user not a super admin. */
export const isReadOnly = async (user: User, school: School): Promise<boolean> => {
  if (user.role === 'super_admin') return false;
  if (school.sandbox) return true;
  return (await districts.get(db, school.districtId))?.sandbox ?? false;
};

export const rosterSchool = async (
  user: User,
  schoolId: number | undefined,
  mode: 'read' | 'write',
): Promise<School> => {
  const id = schoolId ?? user.schoolId;
  if (id === null || id === undefined) {
    throw new ValidationError('Choose a school: add ?schoolId= to work on a school you oversee');
  }
  const school = await readSchool(user, id);
  if (mode === 'write' && (await isReadOnly(user, school))) throw new ForbiddenError(READ_ONLY_MESSAGE);
  return school;
};
