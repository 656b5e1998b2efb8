import * as z from 'zod';
import { arrivalSettingsSchema } from './arrival-schemas';
import { STAFF_ROLES } from './roles';

/** Entity shapes shared by the server and the web client (specification §3). */
export const districtSchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  active: z.boolean(),
  sandbox: z.boolean(),
  createdAt: z.string(),
  /** Its district in Clever, once connected (single sign-on and roster import). */
  cleverId: z.string().optional(),
  /** The time zone a new school of the district takes (issue 50, item 13); America/New_York when absent. */
  timeZone: z.string().optional(),
});
export type District = z.infer<typeof districtSchema>;

export const schoolSchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  districtId: z.number().int().positive(),
  active: z.boolean(),
  sandbox: z.boolean(),
  createdAt: z.string(),
  /** Its school in Clever, once imported from it. */
  cleverId: z.string().optional(),
  /** Batch capacity per vehicle type; defaults apply when absent. */
  batchCapacity: z
    .object({ car: z.number().int().min(1).max(40), bus: z.number().int().min(1).max(40) })
    .optional(),
  /** Days the dismissal's record is kept (a school setting, #32); 400 when absent. */
  retentionDays: z.number().int().min(1).max(3650).optional(),
  /** The usual dismissal length in minutes (a school setting, #32): the Start Session dialog's default; 120 when absent. */
  defaultSessionMinutes: z.number().int().min(1).max(1440).optional(),
  /** The languages the school's families read (a school setting, #32); English and Spanish when absent. */
  languages: z.array(z.string()).optional(),
  /** The school office's phone (a school setting, issue 50): the bus driver's way out when an alert cannot be sent. */
  phone: z.string().nullable().optional(),
  /**
   * The school's clock (issue 51): its IANA time zone (absent on a school saved
   * before the setting: `TIME_ZONE_BEFORE_SETTING`), the families' cutoff for
   * changing today's way home (`HH:MM`, 14:00 when absent) and who approves
   * their changes (`auto` when absent).
   */
  timeZone: z.string().optional(),
  changeCutoff: z.string().optional(),
  changeApproval: z.enum(['auto', 'office']).optional(),
  /** Families' arrival announcements (issue 53): mode and geofence; off when absent. */
  arrival: arrivalSettingsSchema.optional(),
});
export type School = z.infer<typeof schoolSchema>;

export const userSchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  username: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  role: z.enum([...STAFF_ROLES, 'parent']),
  active: z.boolean(),
  schoolId: z.number().int().positive().nullable(),
  districtId: z.number().int().positive().nullable(),
  /** Roster fields of teachers and parents (school admin screen); staff made elsewhere may lack them. */
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  /** Parents: contact details and the children they are linked to. */
  address: z.string().nullable().optional(),
  emergencyContact: z.string().nullable().optional(),
  emergencyPhone: z.string().nullable().optional(),
  studentIds: z.array(z.number().int().positive()).optional(),
  /** Signed in with a one-time password: asked to set their own before anything else. */
  mustChangePassword: z.boolean().optional(),
  /** While `mustChangePassword`: when the one-time password stops working (`ONE_TIME_PASSWORD_TTL_MS`). */
  oneTimePasswordExpiresAt: z.string().optional(),
  /**
   * Parents: the school whose staff or import made this account, and so vouch
   * for its email and phone. Absent on an account its holder registered: an
   * import never matches it (docs/adr/0010-guardian-accounts.md).
   */
  madeBySchoolId: z.number().int().positive().optional(),
  /**
   * Deactivated by a Clever import because the SIS no longer listed them: the
   * next import that lists them again reactivates them. A deactivation by the
   * school (false or absent) stands until the school reverses it.
   */
  retiredBySis: z.boolean().optional(),
  /** The user's id in Clever: set by an import, or at their first single sign-on (matched by email). */
  cleverId: z.string().optional(),
});
export type User = z.infer<typeof userSchema>;

export const districtInputSchema = z.object({
  name: z.string().trim().min(1, 'District name is required').max(100, 'District name is too long'),
  active: z.boolean().default(true),
  sandbox: z.boolean().default(false),
});

export const schoolInputSchema = z.object({
  name: z.string().trim().min(1, 'School name is required').max(100, 'School name is too long'),
  districtId: z.coerce.number({ message: 'District is required' }).int().min(1, 'District is required'),
  active: z.boolean().default(true),
  sandbox: z.boolean().default(false),
});
