import * as z from 'zod';
import { DEFAULT_BATCH_CAPACITY } from './queue';
import { DEFAULT_RETENTION_DAYS } from './record';
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

/** A phone's digits, without its extension: 7 to 15 (E.164's most). */
const PHONE_DIGITS = { min: 7, max: 15 };
/** An extension at the end: `x12`, `ext 12`, `ext. 12`. */
const EXTENSION = /\s*(?:x|ext\.?)\s*\d{1,6}$/i;

/**
 * A phone number as people write it: digits, spaces, dots, dashes and
 * parentheses, a leading + and an extension (`x12`, `ext. 12`), with 7 to 15
 * digits before the extension.
 */
export const isPhoneNumber = (value: string): boolean => {
  const main = value.trim().replace(EXTENSION, '');
  if (!/^\+?[0-9 ().-]+$/.test(main)) return false;
  const digits = main.replace(/\D/g, '').length;
  return digits >= PHONE_DIGITS.min && digits <= PHONE_DIGITS.max;
};

/**
 * A `tel:` address for a phone number (RFC 3966): its digits, a leading +
 * kept, and the extension as `;ext=`: `tel:+15551234567;ext=12`.
 */
export const telHref = (phone: string): string => {
  const trimmed = phone.trim();
  const extension = EXTENSION.exec(trimmed)?.[0].replace(/\D/g, '') ?? '';
  const main = trimmed.replace(EXTENSION, '');
  const digits = `${main.startsWith('+') ? '+' : ''}${main.replace(/\D/g, '')}`;
  return `tel:${digits}${extension ? `;ext=${extension}` : ''}`;
};

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
});
/** A change of the settings, as sent and checked. */
export type SchoolSettingsChange = z.output<typeof schoolSettingsSchema>;
/** The settings in force: the phone always said, null when the school has none. */
export type SchoolSettings = Omit<SchoolSettingsChange, 'phone'> & { phone: string | null };

/** A school's settings as in force: its own, or the defaults where it has none. */
export const schoolSettingsOf = (school: {
  batchCapacity?: { car: number; bus: number } | undefined;
  defaultSessionMinutes?: number | undefined;
  languages?: string[] | undefined;
  retentionDays?: number | undefined;
  phone?: string | null | undefined;
}): SchoolSettings => ({
  carBatchCapacity: school.batchCapacity?.car ?? DEFAULT_BATCH_CAPACITY.car,
  busBatchCapacity: school.batchCapacity?.bus ?? DEFAULT_BATCH_CAPACITY.bus,
  defaultSessionMinutes: school.defaultSessionMinutes ?? DEFAULT_SESSION_MINUTES,
  languages: (school.languages?.filter((l): l is SchoolLanguage =>
    (SCHOOL_LANGUAGES as readonly string[]).includes(l),
  ) ?? ['en', 'es']) as SchoolLanguage[],
  recordRetentionDays: school.retentionDays ?? DEFAULT_RETENTION_DAYS,
  phone: school.phone ?? null,
});
