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
});
export type SchoolSettings = z.infer<typeof schoolSettingsSchema>;

/** A school's settings as in force: its own, or the defaults where it has none. */
export const schoolSettingsOf = (school: {
  batchCapacity?: { car: number; bus: number } | undefined;
  defaultSessionMinutes?: number | undefined;
  languages?: string[] | undefined;
  retentionDays?: number | undefined;
}): SchoolSettings => ({
  carBatchCapacity: school.batchCapacity?.car ?? DEFAULT_BATCH_CAPACITY.car,
  busBatchCapacity: school.batchCapacity?.bus ?? DEFAULT_BATCH_CAPACITY.bus,
  defaultSessionMinutes: school.defaultSessionMinutes ?? DEFAULT_SESSION_MINUTES,
  languages: (school.languages?.filter((l): l is SchoolLanguage =>
    (SCHOOL_LANGUAGES as readonly string[]).includes(l),
  ) ?? ['en', 'es']) as SchoolLanguage[],
  recordRetentionDays: school.retentionDays ?? DEFAULT_RETENTION_DAYS,
});
