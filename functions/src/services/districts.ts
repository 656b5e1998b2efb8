import {
  type District,
  type DistrictEdit,
  type DistrictReportRow,
  type DistrictWithSchools,
  ForbiddenError,
  type NewStaff,
  NotFoundError,
  newSchoolTimeZone,
  type School,
  type StaffInput,
  schoolClockOf,
  type User,
  usernameFromName,
  waitSeconds,
} from '@curbside/domain';
import { districts, pickupSessions, queue, schools, users } from '@curbside/store';
import { db } from '../lib/context';
import { log } from '../lib/log';
import { endSignIns } from './auth';
import { publishToStaff } from './live-events';
import { createWithFreeUsername, newCredentials } from './roster/credentials';
import { isReadOnly, READ_ONLY_MESSAGE } from './roster/scope';
import { readDistrict, readSchool } from './tenancy';

/**
 * Districts and the super admin (issue 17): the districts and schools a
 * caller oversees, creating them, the sandbox and live switches (told to the
 * schools' staff at once), and the district's staff. Tenancy as everywhere:
 * a district admin sees their district, a super admin everything; another
 * tenant's records answer 404.
 */

const byId = <T extends { id: number }>(list: T[]) => list.sort((a, b) => a.id - b.id);

/** Super admin: every district with its schools; district admin: their own. */
export const listDistricts = async (user: User): Promise<DistrictWithSchools[]> => {
  const list =
    user.role === 'super_admin'
      ? await districts.list(db)
      : user.districtId === null
        ? []
        : [await readDistrict(user, user.districtId)];
  return Promise.all(
    byId(list).map(async (district) => ({
      ...district,
      schools: byId(await schools.listByDistrict(db, district.id)),
    })),
  );
};

export const districtSchools = async (user: User, id: number): Promise<School[]> => {
  await readDistrict(user, id);
  return byId(await schools.listByDistrict(db, id));
};

/** The district's staff: everyone of its schools and the district itself, parents not. */
export const districtUsers = async (user: User, id: number): Promise<User[]> => {
  await readDistrict(user, id);
  return byId((await users.listByDistrict(db, id)).filter((member) => member.role !== 'parent'));
};

/** Every school the caller may see: their own; a district admin's district; all for a super admin. */
export const listSchools = async (user: User): Promise<School[]> => {
  if (user.role === 'super_admin') return (await listDistricts(user)).flatMap((district) => district.schools);
  if (user.role === 'district_admin') {
    return user.districtId === null ? [] : districtSchools(user, user.districtId);
  }
  if (user.schoolId === null) return [];
  return [await readSchool(user, user.schoolId)];
};

/**
 * Edit District (issue 50, item 13): a district admin their own district, a
 * super admin any; the time zone is the one its new schools take (a school
 * keeps its own setting).
 */
export const updateDistrict = async (user: User, id: number, input: DistrictEdit): Promise<District> => {
  await readDistrict(user, id);
  const district = await districts.update(db, id, input);
  if (!district) throw new NotFoundError('District not found');
  return district;
};

export const createDistrict = (input: Pick<District, 'name' | 'active' | 'sandbox'>): Promise<District> =>
  districts.create(db, input);

/**
 * A district admin creates schools in their district (unless it is in sandbox
 * mode); a super admin anywhere. The school takes the district's time zone.
 */
export const createSchool = async (
  user: User,
  input: Pick<School, 'name' | 'districtId' | 'active' | 'sandbox'>,
): Promise<School> => {
  const district = await districts.get(db, input.districtId);
  const visible = district && (user.role === 'super_admin' || user.districtId === district.id);
  if (!visible) throw new NotFoundError('District not found');
  if (user.role !== 'super_admin' && district.sandbox) throw new ForbiddenError(READ_ONLY_MESSAGE);
  return schools.create(db, { ...input, timeZone: newSchoolTimeZone(district) });
};

/** Tells every signed-in staff screen of the school its mode (their badge and banner follow). */
const tellSchool = async (school: School, districtSandbox: boolean) => {
  try {
    await publishToStaff(school.id, {
      type: 'SCHOOL_MODE_CHANGED',
      data: { schoolId: school.id, sandbox: school.sandbox, districtSandbox },
    });
  } catch (error) {
    // The switch is made: screens see it on their next read of the school.
    log('warn', 'school mode not told', { schoolId: school.id, error: String(error) });
  }
};

/** A school to sandbox or live: a district admin their district's schools, a super admin any. */
export const setSchoolSandbox = async (user: User, id: number, sandbox: boolean): Promise<School> => {
  await readSchool(user, id);
  const school = await schools.setSandbox(db, id, sandbox);
  if (!school) throw new NotFoundError('School not found');
  const district = await districts.get(db, school.districtId);
  await tellSchool(school, district?.sandbox ?? false);
  return school;
};

/** A whole district to sandbox or live (super admin): every school of it is told. */
export const setDistrictSandbox = async (user: User, id: number, sandbox: boolean): Promise<District> => {
  await readDistrict(user, id);
  const district = await districts.setSandbox(db, id, sandbox);
  if (!district) throw new NotFoundError('District not found');
  const list = await schools.listByDistrict(db, id);
  await Promise.all(list.map((school) => tellSchool(school, sandbox)));
  return district;
};

/**
 * A staff user of one of the district's schools, at or below school admin,
 * with a one-time password shown once (they set their own at first sign-in).
 * A sandboxed school takes no new staff but from a super admin.
 */
export const createStaff = async (user: User, districtId: number, input: StaffInput): Promise<NewStaff> => {
  await readDistrict(user, districtId);
  const school = await readSchool(user, input.schoolId);
  if (school.districtId !== districtId) throw new NotFoundError('School not found');
  if (await isReadOnly(user, school)) throw new ForbiddenError(READ_ONLY_MESSAGE);
  const base = input.username ?? usernameFromName(input.firstName, input.lastName);
  const first = await newCredentials(base);
  const created = await createWithFreeUsername(
    {
      name: `${input.firstName} ${input.lastName}`,
      firstName: input.firstName,
      lastName: input.lastName,
      email: input.email,
      phone: input.phone,
      role: input.role,
      active: true,
      schoolId: school.id,
      districtId,
      mustChangePassword: true,
      passwordHash: first.passwordHash,
    },
    base,
    { exact: input.username !== null },
  );
  return { user: created, credentials: { username: created.username, password: first.credentials.password } };
};

/**
 * Deactivates or reactivates a staff user: a district admin the staff of
 * their district's schools (school admin and below), a super admin anyone
 * but themself. A deactivated user cannot sign in; their sign-ins end and
 * their live connections close at once.
 */
export const setUserActive = async (user: User, id: number, active: boolean): Promise<User> => {
  const target = await users.get(db, id);
  const oversees =
    target !== undefined &&
    target.role !== 'parent' &&
    target.id !== user.id &&
    (user.role === 'super_admin' ||
      (target.districtId !== null &&
        target.districtId === user.districtId &&
        target.schoolId !== null &&
        target.role !== 'district_admin' &&
        target.role !== 'super_admin'));
  if (!target || !oversees) throw new NotFoundError('User not found');
  if (target.schoolId !== null) {
    const school = await readSchool(user, target.schoolId);
    if (await isReadOnly(user, school)) throw new ForbiddenError(READ_ONLY_MESSAGE);
  }
  // The school's (district's) decision, either way: an import neither undoes nor repeats it.
  const changed = await users.updateProfile(db, target, { active, retiredBySis: false });
  if (!active) await endSignIns(id);
  return changed;
};

/** The district's schools and their last dismissal: vehicles and average wait (Generate Report). */
export const districtReport = async (user: User, id: number): Promise<DistrictReportRow[]> => {
  const list = await districtSchools(user, id);
  return Promise.all(
    list.map(async (school): Promise<DistrictReportRow> => {
      const [last] = await pickupSessions.listBySchool(db, school.id, 1);
      if (!last) {
        return {
          schoolId: school.id,
          schoolName: school.name,
          sandbox: school.sandbox,
          timeZone: schoolClockOf(school).timeZone,
          lastSession: null,
          vehicles: 0,
          averageWaitSeconds: null,
        };
      }
      const [active, completed] = await Promise.all([
        queue.listActive(db, last.id),
        queue.listCompleted(db, last.id, 1000),
      ]);
      const waits = completed.map(waitSeconds).filter((wait): wait is number => wait !== null);
      return {
        schoolId: school.id,
        schoolName: school.name,
        sandbox: school.sandbox,
        timeZone: schoolClockOf(school).timeZone,
        lastSession: { name: last.name, startTime: last.startTime },
        vehicles: active.length + completed.length,
        averageWaitSeconds:
          waits.length === 0 ? null : Math.round(waits.reduce((sum, wait) => sum + wait, 0) / waits.length),
      };
    }),
  );
};
