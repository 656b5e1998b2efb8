import {
  ForbiddenError,
  hasMinimumRole,
  NotFoundError,
  reachesFamilyOf,
  type School,
  type Student,
  type User,
} from '@curbside/domain';
import { classrooms, districts, schools } from '@curbside/store';
import { db } from '../lib/context';

/**
 * Tenancy: staff see their own school; district admins their district; super
 * admins everything. Records of another tenant answer 404, so their
 * existence is not revealed.
 */
export const canSeeSchool = (user: User, school: Pick<School, 'id' | 'districtId'>) => {
  if (user.role === 'super_admin') return true;
  if (user.role === 'district_admin')
    return user.districtId !== null && school.districtId === user.districtId;
  return user.schoolId === school.id;
};

export const readSchool = async (user: User, id: number): Promise<School> => {
  const school = await schools.get(db, id);
  if (!school || !canSeeSchool(user, school)) throw new NotFoundError('School not found');
  return school;
};

export const readDistrict = async (user: User, id: number) => {
  const district = await districts.get(db, id);
  const visible = user.role === 'super_admin' || user.districtId === id;
  if (!district || !visible) throw new NotFoundError('District not found');
  return district;
};

/** The school a staff member runs dismissals for. */
export const ownSchoolId = (user: User): number => {
  if (user.schoolId === null) {
    throw new ForbiddenError('Your account is not attached to a school, so it cannot run a pickup session.');
  }
  return user.schoolId;
};

/**
 * Refuses (403, `message`) a user who may not reach the family of this
 * student of their school (`reachesFamilyOf`: staff below school admin only
 * for the classrooms they teach). One classroom read, for those staff only.
 */
export const assertReachesFamily = async (
  user: User,
  student: Pick<Student, 'schoolId' | 'classroomId'>,
  message: string,
): Promise<void> => {
  if (hasMinimumRole(user.role, 'school_admin')) return;
  const room =
    student.classroomId === null
      ? undefined
      : await classrooms.get(db, student.schoolId, student.classroomId);
  if (!reachesFamilyOf(user, room)) throw new ForbiddenError(message);
};
