import * as z from 'zod';
import { arrivalSettingsOf, arrivalSettingsSchema } from './arrival-schemas';
import type { ArrivalSettings } from './arrivals';
import { isPhoneNumber } from './phones';
import { DEFAULT_BATCH_CAPACITY } from './queue';
import { DEFAULT_RETENTION_DAYS } from './record';
import { canonicalTimeZone, DEFAULT_TIME_ZONE, TIME_ZONE_BEFORE_SETTING } from './school-clock';
import { SESSION_DEFAULT_LENGTH_MS } from './sessions';

/**
 * A school's own settings (issue 32): its batch sizes, its usual dismissal
 * length, its languages and how long it keeps its record. School admins and
 * above change them; a new batch takes the capacity in force when it is made.
 */
export const SCHOOL_SETTINGS_BOUNDS = {
  carBatchCapacity: { min: 1, max: 30 },
  busBatchCapacity: { min: 1, max: 10 },
  defaultSessionMinutes: { min: 15, max: 240 },
  recordRetentionDays: { min: 30, max: 2555 },
} as const;

export const SCHOOL_LANGUAGES = ['en', 'es'] as const;
export type SchoolLanguage = (typeof SCHOOL_LANGUAGES)[number];

/**
 * Who decides a parent's change of a child's way home (issue 51): `auto`
 * approves it at once, `office` keeps it pending until a school admin decides.
 */
export const CHANGE_APPROVALS = ['auto', 'office'] as const;
export type ChangeApproval = (typeof CHANGE_APPROVALS)[number];
/** Until when (the school's wall clock) families may change today's way home: 2:00 PM. */
export const DEFAULT_CHANGE_CUTOFF = '14:00';
export const DEFAULT_CHANGE_APPROVAL: ChangeApproval = 'auto';

/** A zone by its IANA name, checked with `Intl` and kept as `Intl` spells it. */
export const timeZoneSchema = z
  .string({ error: 'Time zone must be an IANA time zone name, such as America/Chicago' })
  .trim()
  .max(64, { error: 'Time zone must be an IANA time zone name, such as America/Chicago' })
  .refine((name) => canonicalTimeZone(name) !== null, {
    error: 'Time zone must be an IANA time zone name, such as America/Chicago',
  })
  .transform((name) => canonicalTimeZone(name) as string);

/** A wall-clock time `HH:MM`, 24-hour. */
export const changeCutoffSchema = z
  .string({ error: 'Change cutoff must be a time as HH:MM (24-hour), such as 14:00' })
  .max(5, { error: 'Change cutoff must be a time as HH:MM (24-hour), such as 14:00' })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, {
    error: 'Change cutoff must be a time as HH:MM (24-hour), such as 14:00',
  });

/** The usual dismissal length when a school has not set one: the specification's session default length, 2 hours. */
export const DEFAULT_SESSION_MINUTES = SESSION_DEFAULT_LENGTH_MS / 60_000;

const bounded = (name: string, { min, max }: { min: number; max: number }) =>
  z
    .number({ error: `${name} must be a whole number from ${min} to ${max}` })
    .int({ error: `${name} must be a whole number from ${min} to ${max}` })
    .min(min, { error: `${name} must be at least ${min}` })
    .max(max, { error: `${name} must be at most ${max}` });

/** What a school phone that is not one is told (issue 50). */
export const SCHOOL_PHONE_MESSAGE = 'Enter a phone number such as (555) 123-4567, or leave it empty';

/**
 * The school's phone (issue 50): the number a bus driver's page offers to
 * call when an alert cannot be sent. Empty (or null) is none.
 */
export const schoolPhoneSchema = z
  .string({ error: SCHOOL_PHONE_MESSAGE })
  .trim()
  .max(40, { error: SCHOOL_PHONE_MESSAGE })
  .refine((value) => value === '' || isPhoneNumber(value), { error: SCHOOL_PHONE_MESSAGE })
  .transform((value) => (value === '' ? null : value))
  .nullable();

export const schoolSettingsSchema = z.strictObject({
  carBatchCapacity: bounded('Car batch size', SCHOOL_SETTINGS_BOUNDS.carBatchCapacity),
  busBatchCapacity: bounded('Bus batch size', SCHOOL_SETTINGS_BOUNDS.busBatchCapacity),
  defaultSessionMinutes: bounded('Dismissal length', SCHOOL_SETTINGS_BOUNDS.defaultSessionMinutes),
  languages: z
    .array(z.enum(SCHOOL_LANGUAGES, { error: 'Languages may be en and es' }))
    .max(SCHOOL_LANGUAGES.length)
    .refine((list) => list.includes('en'), { error: 'Languages must include English (en)' })
    .refine((list) => new Set(list).size === list.length, { error: 'Languages must not repeat' }),
  recordRetentionDays: bounded('Record retention', SCHOOL_SETTINGS_BOUNDS.recordRetentionDays),
  /** Absent: left as it is (a client that does not know the field keeps the phone). */
  phone: schoolPhoneSchema.optional(),
  /** The school's clock (issue 51): its IANA zone, the families' cutoff for today, who approves their changes. */
  timeZone: timeZoneSchema,
  changeCutoff: changeCutoffSchema,
  changeApproval: z.enum(CHANGE_APPROVALS, { error: 'Change approval must be auto or office' }),
  /** Families' arrival announcements (issue 53): off, confirm or auto, and the school's geofence. */
  arrival: arrivalSettingsSchema,
});
/** The settings in force: the phone always said (null when the school has none). */
export type SchoolSettings = Omit<z.output<typeof schoolSettingsSchema>, 'phone'> & { phone: string | null };

/**
 * `PUT /api/schools/{id}/settings`: the settings; the phone and the clock's
 * three may be left out (each then stays as it is), so a client that predates
 * them still saves.
 */
export const schoolSettingsInputSchema = schoolSettingsSchema.partial({
  timeZone: true,
  changeCutoff: true,
  changeApproval: true,
  arrival: true,
});
export type SchoolSettingsInput = z.output<typeof schoolSettingsInputSchema>;

/** A school's settings as in force: its own, or the defaults where it has none. */
export const schoolSettingsOf = (school: {
  batchCapacity?: { car: number; bus: number } | undefined;
  defaultSessionMinutes?: number | undefined;
  languages?: string[] | undefined;
  retentionDays?: number | undefined;
  phone?: string | null | undefined;
  timeZone?: string | undefined;
  changeCutoff?: string | undefined;
  changeApproval?: string | undefined;
  arrival?: ArrivalSettings | undefined;
}): SchoolSettings => ({
  carBatchCapacity: school.batchCapacity?.car ?? DEFAULT_BATCH_CAPACITY.car,
  busBatchCapacity: school.batchCapacity?.bus ?? DEFAULT_BATCH_CAPACITY.bus,
  defaultSessionMinutes: school.defaultSessionMinutes ?? DEFAULT_SESSION_MINUTES,
  languages: (school.languages?.filter((l): l is SchoolLanguage =>
    (SCHOOL_LANGUAGES as readonly string[]).includes(l),
  ) ?? ['en', 'es']) as SchoolLanguage[],
  recordRetentionDays: school.retentionDays ?? DEFAULT_RETENTION_DAYS,
  phone: school.phone ?? null,
  ...schoolClockOf(school),
  arrival: arrivalSettingsOf(school.arrival),
});

/** The school's clock and change rules as in force (the defaults where it has none). */
export const schoolClockOf = (school: {
  timeZone?: string | undefined;
  changeCutoff?: string | undefined;
  changeApproval?: string | undefined;
}): { timeZone: string; changeCutoff: string; changeApproval: ChangeApproval } => ({
  timeZone: school.timeZone ?? TIME_ZONE_BEFORE_SETTING,
  changeCutoff: school.changeCutoff ?? DEFAULT_CHANGE_CUTOFF,
  changeApproval: school.changeApproval === 'office' ? 'office' : DEFAULT_CHANGE_APPROVAL,
});

/** The zone a new school takes: its district's default, else `DEFAULT_TIME_ZONE`. */
export const newSchoolTimeZone = (district: { timeZone?: string | undefined } | undefined): string =>
  district?.timeZone ?? DEFAULT_TIME_ZONE;
