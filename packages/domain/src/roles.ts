/** Staff roles, their ranks and home paths (specification §2 and §6). */
export const STAFF_ROLES = [
  'front_queue_wrangler',
  'back_queue_wrangler',
  'teacher',
  'school_admin',
  'district_admin',
  'super_admin',
] as const;

export type StaffRole = (typeof STAFF_ROLES)[number];
export type Role = StaffRole | 'parent';

export const ROLE_RANK: Readonly<Record<StaffRole, number>> = {
  front_queue_wrangler: 1,
  back_queue_wrangler: 2,
  teacher: 3,
  school_admin: 4,
  district_admin: 5,
  super_admin: 6,
};

export const ROLE_LABEL: Readonly<Record<StaffRole, string>> = {
  front_queue_wrangler: 'Front Queue',
  back_queue_wrangler: 'Back Queue',
  teacher: 'Teacher',
  school_admin: 'School Admin',
  district_admin: 'District Admin',
  super_admin: 'Super Admin',
};

export const ROLE_HOME: Readonly<Record<StaffRole, string>> = {
  super_admin: '/super-admin',
  district_admin: '/district-admin',
  school_admin: '/school-admin',
  teacher: '/teacher',
  back_queue_wrangler: '/back-queue',
  front_queue_wrangler: '/front-queue',
};

export const isStaffRole = (role: unknown): role is StaffRole =>
  typeof role === 'string' && (STAFF_ROLES as readonly string[]).includes(role);

/** Rank of a role; parents, unknown roles and missing users rank 0. */
export const rankOf = (role: unknown): number => (isStaffRole(role) ? ROLE_RANK[role] : 0);

/** Home path of a role; any unknown role goes to the front queue. */
export const homePathOf = (role: unknown): string => (isStaffRole(role) ? ROLE_HOME[role] : '/front-queue');

/** Where `/` leads a signed-in user: parents to their dashboard, staff to their role's home. */
export const homeOf = (role: unknown): string => (role === 'parent' ? '/parent-dashboard' : homePathOf(role));

export const hasMinimumRole = (role: unknown, minimum: StaffRole): boolean =>
  rankOf(role) >= ROLE_RANK[minimum];

/** Roles a user may switch the view to: theirs and every one ranked below. */
export const viewableRoles = (role: unknown): StaffRole[] =>
  STAFF_ROLES.filter((candidate) => ROLE_RANK[candidate] <= rankOf(role));

export type DataAction = 'create' | 'update' | 'delete' | 'import';

const DATA_PERMISSIONS: Readonly<Record<StaffRole, readonly DataAction[]>> = {
  super_admin: ['create', 'update', 'delete', 'import'],
  district_admin: ['create', 'update', 'delete', 'import'],
  school_admin: ['create', 'update', 'delete', 'import'],
  teacher: ['update'],
  back_queue_wrangler: [],
  front_queue_wrangler: [],
};

/**
 * The data-permission matrix over a school's records. A sandboxed school or
 * district is read-only for everyone but super admins.
 */
export const canPerform = (role: unknown, action: DataAction, sandboxed = false): boolean => {
  if (!isStaffRole(role)) return false;
  if (sandboxed && role !== 'super_admin') return false;
  return DATA_PERMISSIONS[role].includes(action);
};

/**
 * A student's family is reached (parent invites, pickup codes) by school admins
 * and above for any student of their school, and by staff below them only for
 * the students of the classrooms they teach (issues 29, 49): a teacher can
 * hand no one a link to a child of another classroom.
 */
export const reachesFamilyOf = (
  user: { id: number; role: unknown },
  classroom: { teacherId: number | null } | null | undefined,
): boolean => hasMinimumRole(user.role, 'school_admin') || (!!classroom && classroom.teacherId === user.id);

/** Why a pickup code of another classroom's student is refused (403). */
export const NOT_YOUR_CLASS_CODE =
  'Teachers can make and read pickup codes for the students of their own classrooms only.';
