import * as z from 'zod';
import {
  ARRIVAL_MODES,
  ARRIVAL_STATES,
  type ArrivalSettings,
  DEFAULT_ARRIVAL_SETTINGS,
  GEOFENCE_RADIUS_M,
} from './arrivals';

/**
 * The arrivals' request schemas (issue 53), apart from their rules and labels (`arrivals.ts`):
 * a screen that shows arrivals or reads a placard loads no zod (the front queue's first load).
 */

const RADIUS_MESSAGE = `Radius must be a whole number of metres from ${GEOFENCE_RADIUS_M.min} to ${GEOFENCE_RADIUS_M.max}`;

const coordinate = (name: string, limit: number) =>
  z
    .number({ error: `${name} must be a number from -${limit} to ${limit}` })
    .min(-limit, { error: `${name} must be a number from -${limit} to ${limit}` })
    .max(limit, { error: `${name} must be a number from -${limit} to ${limit}` });

export const geofenceSchema = z.strictObject({
  lat: coordinate('Latitude', 90),
  lon: coordinate('Longitude', 180),
  radiusM: z
    .number({ error: RADIUS_MESSAGE })
    .int({ error: RADIUS_MESSAGE })
    .min(GEOFENCE_RADIUS_M.min, { error: RADIUS_MESSAGE })
    .max(GEOFENCE_RADIUS_M.max, { error: RADIUS_MESSAGE }),
});

/** The school setting `arrival` (`GET/PUT /api/schools/{id}/settings`). */
export const arrivalSettingsSchema = z.strictObject(
  {
    mode: z.enum(ARRIVAL_MODES, { error: 'Arrival mode must be off, confirm or auto' }),
    geofence: geofenceSchema.nullable(),
  },
  { error: 'Arrival must be { mode, geofence }' },
);

/** The arrival settings in force: the school's own, or off. */
export const arrivalSettingsOf = (stored: unknown): ArrivalSettings => {
  const parsed = arrivalSettingsSchema.safeParse(stored);
  return parsed.success ? parsed.data : DEFAULT_ARRIVAL_SETTINGS;
};

/** `POST /api/parent/arrivals`. `schoolId`: needed only by a family with children at several schools. */
export const arrivalInputSchema = z.strictObject({
  state: z.enum(ARRIVAL_STATES, { error: 'state must be on_the_way or here' }),
  position: z
    .strictObject(
      {
        lat: coordinate('Latitude', 90),
        lon: coordinate('Longitude', 180),
        accuracy: z
          .number({ error: 'Accuracy must be a number of metres' })
          .min(0, { error: 'Accuracy must be a number of metres' })
          .max(1_000_000, { error: 'Accuracy must be a number of metres' }),
      },
      { error: 'position must be { lat, lon, accuracy }' },
    )
    .optional(),
  schoolId: z
    .number({ error: 'schoolId must be the id of a school' })
    .int({ error: 'schoolId must be the id of a school' })
    .positive({ error: 'schoolId must be the id of a school' })
    .optional(),
});
export type ArrivalInput = z.output<typeof arrivalInputSchema>;
