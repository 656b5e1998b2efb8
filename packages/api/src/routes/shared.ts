import { busAlertSchema, createAlertSchema, schoolScopeSchema } from '@curbside/domain';
import * as z from 'zod';
import { returns } from '../route';

/** What the route tables of several areas share: parameter schemas and answer shapes. */
export const importJobParams = z.object({
  id: z
    .string()
    .max(36, 'No such import job')
    .regex(/^[0-9a-f-]{36}$/, 'No such import job'),
});

/** A mail run's id (a UUID, as the email route answers it). */
export const mailRunParams = z.object({
  id: z
    .string()
    .max(36, 'No such mail run')
    .regex(/^[0-9a-f-]{36}$/, 'No such mail run'),
});

export const id = z.coerce.number({ message: 'Invalid id' }).int('Invalid id').positive('Invalid id');
export const idParams = z.object({ id });
export const ok = returns<{ ok: true }>();
export const cursorQuery = z.object({
  cursor: z.string({ message: 'Invalid cursor' }).max(1000, 'Invalid cursor').optional(),
});
export const day = (name: string) =>
  z
    .string({ message: `${name} is required` })
    .max(10, `${name} must be a date (YYYY-MM-DD)`)
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${name} must be a date (YYYY-MM-DD)`);
export const entryParams = z.object({ id: z.string().trim().min(1, 'Invalid id').max(64, 'Invalid id') });
export const sessionQuery = z.object({ sessionId: id });
/** `classroomIds=3,7`: the classrooms a teacher view is about (absent: the whole school). */
export const classroomIds = z
  .string({ message: 'Classroom ids must be numbers separated by commas' })
  .max(400, 'Too many classrooms')
  .regex(/^\d{1,10}(,\d{1,10})*$/, 'Classroom ids must be numbers separated by commas')
  .transform((value) => value.split(',').map(Number))
  .optional();
/** A roster route of a school: `?schoolId=` lets district and super admins pick the school. */
export const rosterParams = { params: idParams, query: schoolScopeSchema };

/**
 * `POST /api/alerts`: a staff alert (the toggle of the alert panel), or a bus
 * driver's (source `bus_driver`, sent with the driver link), each checked
 * with its own rules and messages.
 */
export const alertBodySchema = z.unknown().transform((value, context) => {
  const driver =
    typeof value === 'object' && value !== null && 'source' in value && value.source === 'bus_driver';
  const result = (driver ? busAlertSchema : createAlertSchema).safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) context.addIssue({ ...issue, input: value } as never);
  return z.NEVER;
}) as unknown as z.ZodType<
  z.output<typeof createAlertSchema> | z.output<typeof busAlertSchema>,
  z.input<typeof createAlertSchema> | z.input<typeof busAlertSchema>
>;
