import * as z from 'zod';
import { isCommonPassword, PASSWORD_TOO_COMMON } from './passwords';
import { optionalEmail, optionalPhone, requiredText, usernameSchema } from './roster';
import type { District, School, User } from './schemas';
import { timeZoneSchema } from './school-settings';

/**
 * Districts and the super admin (specification §2 "District admin screen"
 * and "Super admin screen", §7 "Administration"): the mode switches, the
 * district's staff, and the report of its schools.
 */

/** The roles a district admin may give the staff of their schools: school_admin and below. */
export const DISTRICT_STAFF_ROLES = [
  'front_queue_wrangler',
  'back_queue_wrangler',
  'teacher',
  'school_admin',
] as const;
export type DistrictStaffRole = (typeof DISTRICT_STAFF_ROLES)[number];

/** `PATCH|PUT /api/schools/{id}/sandbox`, `PUT /api/districts/{id}/sandbox`. */
export const sandboxInputSchema = z.object({
  sandbox: z.boolean({ message: 'sandbox must be true or false' }),
});

/** `POST /api/districts/{id}/users`: a staff user of one of the district's schools. */
export const staffInputSchema = z.object({
  firstName: requiredText('First name', 50),
  lastName: requiredText('Last name', 50),
  email: optionalEmail('Email'),
  phone: optionalPhone('Phone'),
  /** Made from the name when blank. */
  username: z
    .union([usernameSchema, z.literal('')])
    .nullish()
    .transform((value) => value || null),
  role: z.enum(DISTRICT_STAFF_ROLES, { message: 'Choose a role at or below school admin' }),
  schoolId: z.coerce.number({ message: 'School is required' }).int().min(1, 'School is required'),
});
export type StaffInput = z.output<typeof staffInputSchema>;

/**
 * `PUT /api/districts/{id}` (Edit District, issue 50 item 13): its name, and
 * the time zone its new schools take (left out: as it is).
 */
export const districtEditSchema = z.object({
  name: z.string().trim().min(1, 'District name is required').max(100, 'District name is too long'),
  timeZone: timeZoneSchema.optional(),
});
export type DistrictEdit = z.output<typeof districtEditSchema>;

/** `PUT /api/users/{id}/active`: deactivate (sessions end, live connections close) or reactivate. */
export const activeInputSchema = z.object({
  active: z.boolean({ message: 'active must be true or false' }),
});

/** Passwords a user sets for themself: at least 8 characters (a one-time password is 12). */
export const PASSWORD_MIN = 8;
/** `POST /api/auth/password`: a signed-in user replaces their (one-time) password. */
export const passwordChangeSchema = z
  .object({
    currentPassword: z.string().min(1, 'Current password is required').max(200, 'Password is too long'),
    newPassword: z
      .string()
      .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`)
      .max(200, 'Password is too long')
      // Nobody chooses one of the passwords attackers try first (issue 50, NIST SP 800-63B).
      .refine((password) => !isCommonPassword(password), PASSWORD_TOO_COMMON),
  })
  .refine((value) => value.newPassword !== value.currentPassword, {
    message: 'Choose a password different from the one-time password',
    path: ['newPassword'],
  });

/** A district with its schools (the super admin's list). */
export interface DistrictWithSchools extends District {
  schools: School[];
}

/** The district admin's new staff user and their one-time sign-in, shown once. */
export interface NewStaff {
  user: User;
  credentials: { username: string; password: string };
}

/** One row of the district report (Generate Report): each school's last dismissal. */
export interface DistrictReportRow {
  schoolId: number;
  schoolName: string;
  sandbox: boolean;
  /** The last ended (or running) session of the school, or null when it never ran one. */
  lastSession: { name: string; startTime: string } | null;
  vehicles: number;
  /** Mean wait of the completed visits of that session, in seconds (null: none completed). */
  averageWaitSeconds: number | null;
  /** The school's time zone (issue 51): its session's start is written in it. */
  timeZone?: string;
}
