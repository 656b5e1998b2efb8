import * as z from 'zod';
import { SESSION_TYPES } from './sessions';

/**
 * Pickup sessions' schemas (specification §3, §4), apart from `sessions.ts` so a screen that
 * needs only the session rules (every staff screen's shell) does not carry zod.
 */
export const pickupSessionSchema = z.object({
  id: z.number().int().positive(),
  schoolId: z.number().int().positive(),
  name: z.string(),
  type: z.enum(SESSION_TYPES),
  startTime: z.string(),
  endTime: z.string(),
  notes: z.string().nullable(),
  status: z.enum(['active', 'ended']),
  endedAt: z.string().nullable(),
});
export type PickupSession = z.infer<typeof pickupSessionSchema>;

const isoTime = (message: string) =>
  z
    .string({ message })
    .trim()
    .min(1, message)
    .max(40, 'Enter a valid date and time')
    .refine((value) => !Number.isNaN(Date.parse(value)), 'Enter a valid date and time');

/** The session form and `POST /api/sessions` share these rules and messages. */
export const sessionInputSchema = z
  .object({
    name: z
      .string({ message: 'Session name is required' })
      .trim()
      .min(1, 'Session name is required')
      .max(100, 'Session name is too long'),
    type: z.enum(SESSION_TYPES, { message: 'Choose morning dropoff or afternoon pickup' }),
    startTime: isoTime('Start time is required'),
    endTime: isoTime('End time is required'),
    notes: z
      .string({ message: 'Notes must be text' })
      .trim()
      .max(1000, 'Notes are too long')
      .optional()
      .nullable(),
  })
  .refine((input) => Date.parse(input.endTime) > Date.parse(input.startTime), {
    message: 'End time must be after start time',
    path: ['endTime'],
  });
export type SessionInput = z.input<typeof sessionInputSchema>;
