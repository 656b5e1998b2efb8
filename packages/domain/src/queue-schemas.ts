import * as z from 'zod';
import { ALERT_TYPES, VEHICLE_TYPES } from './queue';
import { confirmUnreleasedField } from './record';

/**
 * The queue's request schemas (specification §4, §5), apart from `queue.ts` so a screen that
 * needs only the queue's rules (the front queue's first load) does not carry zod.
 */
export const vehicleNumberSchema = z
  .string({ message: 'Vehicle number is required' })
  .trim()
  // A blank number is only "required", not also "letters and digits".
  .min(1, { message: 'Vehicle number is required', abort: true })
  .max(12, 'Vehicle number is too long')
  .regex(/^[A-Za-z0-9]+$/, 'Vehicle number can only contain letters and digits');

export const addVehicleSchema = z.object({
  sessionId: z.coerce.number({ message: 'Session is required' }).int().positive('Session is required'),
  vehicleNumber: vehicleNumberSchema,
  vehicleType: z.enum(VEHICLE_TYPES, { message: 'Vehicle type must be car or bus' }).default('car'),
  /**
   * The staff queue a car none of whose children goes home in it today
   * (issue 52): an adult in a car is a person waiting. Without it, such a car
   * is answered 409 `{ message, notComing }`.
   */
  queueAnyway: z.boolean({ message: 'queueAnyway must be true or false' }).optional(),
});
export type AddVehicleInput = z.input<typeof addVehicleSchema>;
/** A queueing request as its route validated it (number trimmed, type defaulted). */
export type AddVehicleRequest = z.output<typeof addVehicleSchema>;

export const createAlertSchema = z.object({
  sessionId: z.coerce
    .number({ message: 'Invalid session' })
    .int('Invalid session')
    .positive('Invalid session')
    .nullable()
    .optional(),
  type: z.enum(ALERT_TYPES, { message: 'Alert type must be emergency or help' }),
  location: z
    .string({ message: 'Location is required' })
    .trim()
    .min(1, 'Location is required')
    .max(100, 'Location is too long'),
  message: z.string({ message: 'Message must be text' }).trim().max(500, 'Message is too long').optional(),
});

export const createBatchSchema = z.object({
  sessionId: z.coerce.number({ message: 'Session is required' }).int().positive('Session is required'),
  vehicleType: z.enum(VEHICLE_TYPES, { message: 'Vehicle type must be car or bus' }),
  /** Fill the new batch with the next waiting vehicles of its type, up to capacity, in the same call. */
  fill: z.boolean({ message: 'fill must be true or false' }).optional(),
});

const BATCH_CHANGE_MESSAGE = 'Send a status of loading or completed, or a currentCount of 0 or more';
const batchTime = z
  .string({ message: 'Enter a valid date and time' })
  .max(40, 'Enter a valid date and time')
  .optional();
const batchCount = z
  .number({ message: 'The count must be a number' })
  .int('The count must be a whole number')
  .min(0, 'The count cannot be below 0');

/**
 * A batch change: a status (with its time) or a count. Each field is checked
 * first, so a wrong field is named; then the change must be one of the three.
 */
export const updateBatchSchema = z
  .object({
    status: z.string({ message: BATCH_CHANGE_MESSAGE }).max(20, BATCH_CHANGE_MESSAGE).optional(),
    startTime: batchTime,
    endTime: batchTime,
    currentCount: batchCount.optional(),
    confirmUnreleased: confirmUnreleasedField,
  })
  .pipe(
    z.union(
      [
        z.object({ status: z.literal('loading'), startTime: batchTime }),
        z.object({
          status: z.literal('completed'),
          endTime: batchTime,
          confirmUnreleased: confirmUnreleasedField,
        }),
        z.object({ currentCount: batchCount }),
      ],
      { message: BATCH_CHANGE_MESSAGE },
    ),
  );
