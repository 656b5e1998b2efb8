import * as z from 'zod';

/**
 * Buses: the driver page shares a bus's position, the bus map shows the
 * school's buses. Both pages open from a school's private links (a random,
 * revocable token each: `?t=`), never from a login.
 */

/** The two links of a school: the driver link sends positions, the map link watches them. */
export const BUS_LINK_KINDS = ['driver', 'map'] as const;
export type BusLinkKind = (typeof BUS_LINK_KINDS)[number];

/** A school's bus, as the driver page lists it: `B1`, 'Bus 1', 'Route A'. */
export interface Bus {
  busId: string;
  name: string;
  route: string | null;
}

/** A position as the driver page sends it (speed in m/s, accuracy in m, timestamp in ms). */
export interface BusLocation {
  latitude: number;
  longitude: number;
  speed?: number;
  accuracy?: number;
  heading?: number;
  timestamp: number;
}

/** A bus's last position, as the map receives it; `updatedAt`: when the server took it (ms). */
export interface BusPosition {
  busId: string;
  location: BusLocation;
  updatedAt: number;
}

/** The school's two bus links, absolute URLs carrying their tokens. */
export interface BusLinks {
  driverUrl: string;
  mapUrl: string;
}

/** Specification §9: the bus map and the driver page. */
export const BUS_MAP = {
  /** A bus with no update for this long leaves the map (and its stored position expires). */
  staleMs: 5 * 60_000,
  cleanupEveryMs: 30_000,
  /** Active under a minute since its last update, delayed after that. */
  activeMs: 60_000,
  center: { latitude: 29.9811, longitude: -81.4457 },
  zoom: 15,
  focusZoom: 16,
  fitPadding: 0.1,
  heightPx: 320,
} as const;

export const BUS_DRIVER = {
  heartbeatMs: 15_000,
  watch: { enableHighAccuracy: true, timeout: 10_000, maximumAge: 1_000 },
  keptLocations: 50,
  shownLocations: 10,
} as const;

/** The relay sends each map viewer at most one message per this many ms, for the whole fleet. */
export const BUS_FANOUT_MS = 1000;

/** A bus's identifier from its vehicle number: `B` and the number (specification §3). */
export const busIdOf = (number: string) => `B${number}`;

const finite = (message: string) => z.number({ message }).finite(message);

/** A position from a driver's page; anything else is dropped. */
export const busLocationSchema = z.object({
  latitude: finite('Invalid latitude').min(-90, 'Invalid latitude').max(90, 'Invalid latitude'),
  longitude: finite('Invalid longitude').min(-180, 'Invalid longitude').max(180, 'Invalid longitude'),
  speed: finite('Invalid speed').min(0, 'Invalid speed').max(100, 'Invalid speed').nullish(),
  accuracy: finite('Invalid accuracy').min(0, 'Invalid accuracy').max(100_000, 'Invalid accuracy').nullish(),
  heading: finite('Invalid heading').min(0, 'Invalid heading').max(360, 'Invalid heading').nullish(),
  timestamp: finite('Invalid timestamp').min(0, 'Invalid timestamp'),
});

export const busIdSchema = z
  .string({ message: 'Invalid bus' })
  .trim()
  .regex(/^B[0-9A-Za-z-]{1,20}$/, 'Invalid bus');

/** The driver page's alert (specification §7): help or emergency from a bus. */
export const busAlertSchema = z.object({
  type: z.enum(['emergency', 'help'], { message: 'Alert type must be emergency or help' }),
  priority: z.enum(['medium', 'critical'], { message: 'Priority must be medium or critical' }),
  title: z
    .string({ message: 'Title must be text' })
    .trim()
    .min(1, 'Title is required')
    .max(100, 'Title is too long'),
  message: z.string({ message: 'Message must be text' }).trim().max(500, 'Message is too long').optional(),
  source: z.literal('bus_driver', { message: 'Source must be bus_driver' }),
  metadata: z.object({
    // Null: the driver has not chosen a bus yet (issue 50: Help works before that).
    busId: busIdSchema.nullable(),
    busName: z.string({ message: 'Bus name must be text' }).trim().max(60, 'Bus name is too long'),
    location: z
      .object({
        latitude: finite('Invalid latitude').min(-90, 'Invalid latitude').max(90, 'Invalid latitude'),
        longitude: finite('Invalid longitude').min(-180, 'Invalid longitude').max(180, 'Invalid longitude'),
      })
      .nullish(),
  }),
});
export type BusAlertInput = z.output<typeof busAlertSchema>;

/** What the driver page says once the office replaced its link (issue 50). */
export const DRIVER_LINK_REPLACED =
  'This driver link was replaced by the school office. Ask the office for the new one.';

/** What a page without a valid link says (one sentence: how to get one). */
export const BUS_LINK_MISSING = {
  driver: 'This page opens from your school’s bus driver link: ask the school office for the current link.',
  map: 'This map opens from your school’s bus map link: ask the school office for the current link.',
} as const;
