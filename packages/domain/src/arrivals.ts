import type { StudentSummary, Vehicle, VehicleType } from './queue';

/**
 * Families announce their arrival (issue 53, docs/adr/0023-arrivals.md): a
 * parent says "I'm on my way" or "I'm here" during a running pickup session;
 * the school's staff see it (the front screen's Arriving list, the children's
 * teachers), and with `auto` a "here" queues the family's car at once.
 * Positions are used for the geofence check and dropped, never kept.
 */

/** `off`: nobody announces; `confirm`: staff queue the car with one tap; `auto`: "here" queues it at once. */
export const ARRIVAL_MODES = ['off', 'confirm', 'auto'] as const;
export type ArrivalMode = (typeof ARRIVAL_MODES)[number];

/** A geofence's radius, in metres. */
export const GEOFENCE_RADIUS_M = { min: 50, max: 2000 } as const;
/** A position's accuracy is counted in the parent's favour up to this many metres. */
export const ACCURACY_ALLOWANCE_M = 100;

export interface Geofence {
  lat: number;
  lon: number;
  radiusM: number;
}

export interface ArrivalSettings {
  mode: ArrivalMode;
  geofence: Geofence | null;
}

export const DEFAULT_ARRIVAL_SETTINGS: ArrivalSettings = { mode: 'off', geofence: null };

export const ARRIVAL_STATES = ['on_the_way', 'here'] as const;
export type ArrivalState = (typeof ARRIVAL_STATES)[number];

/** An announcement as the school's staff see it (never sent to a parent). */
export interface Arrival {
  id: string;
  sessionId: number;
  schoolId: number;
  state: ArrivalState;
  /** The announcing parent's name, as staff see it. */
  parentName: string;
  /** Today's car riders among the parent's children at this school. */
  studentIds: number[];
  students: Array<Pick<StudentSummary, 'id' | 'firstName' | 'lastName' | 'classroomId'>>;
  /** The family's car today; null: no car on file ("Parent on foot"). */
  vehicleNumber: string | null;
  vehicleType: VehicleType | null;
  /** The visit queued for it (`auto`), once queued. */
  entryId: string | null;
  /** `announcement`: the car was queued by the announcement itself (`auto`). */
  queuedBy: 'announcement' | null;
  announcedAt: string;
  /** When it last changed (the state): "how long ago". */
  updatedAt: string;
}

/** What the parent is answered: their own announcement, nothing of anyone else. */
export interface ParentArrival {
  id: string;
  state: ArrivalState;
  studentIds: number[];
  vehicleNumber: string | null;
  entryId?: string;
}

export const parentArrivalOf = (arrival: Arrival): ParentArrival => ({
  id: arrival.id,
  state: arrival.state,
  studentIds: arrival.studentIds,
  vehicleNumber: arrival.vehicleNumber,
  ...(arrival.entryId ? { entryId: arrival.entryId } : {}),
});

/** `GET /api/parent/arrivals`: a school of the family where announcing is open now (a session runs, arrival on). */
export interface ArrivalOpening {
  schoolId: number;
  schoolName: string | null;
  sessionId: number;
  mode: Exclude<ArrivalMode, 'off'>;
  /** "I'm here" needs the phone's position (the school set a geofence). */
  needsPosition: boolean;
  arrival: ParentArrival | null;
}

export const ARRIVAL_MESSAGES = {
  off: 'This school does not take arrival announcements',
  noSession: 'Pickup has not started yet',
  noChild: 'You have no child at that school',
  whichSchool: 'Choose the school you are arriving at',
  needsPosition: 'Share your location to announce that you are here',
  noCarRider: 'None of your children goes home by car today. Please call the school office.',
  tooMany: 'Too many announcements. Please wait a few minutes and try again.',
} as const;

/** Announcements a parent may make in `ARRIVAL_THROTTLE.windowMs` (a tap of each button, several times over). */
export const ARRIVAL_THROTTLE = { limit: 12, windowMs: 10 * 60_000 } as const;

const EARTH_RADIUS_M = 6_371_008.8;
const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** The great-circle distance between two points, in metres (haversine). */
export const distanceM = (a: { lat: number; lon: number }, b: { lat: number; lon: number }): number => {
  const dLat = radians(b.lat - a.lat);
  const dLon = radians(b.lon - a.lon);
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.lat)) * Math.cos(radians(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
};

/**
 * Whether a position is inside the fence: its distance from the school's
 * point, less its accuracy (counted in the parent's favour, at most
 * `ACCURACY_ALLOWANCE_M`), within the radius. `distanceM`: from the point.
 */
export const fenceCheck = (
  fence: Geofence,
  position: { lat: number; lon: number; accuracy: number },
): { inside: boolean; distanceM: number } => {
  const distance = distanceM(fence, position);
  const allowance = Math.min(Math.max(position.accuracy, 0), ACCURACY_ALLOWANCE_M);
  return { inside: distance - allowance <= fence.radiusM, distanceM: Math.round(distance) };
};

/** A distance as a parent reads it: `350 m` under a kilometre (tens), else `2.3 km`. */
export const distanceText = (metres: number): string =>
  metres < 1000 ? `${Math.max(10, Math.round(metres / 10) * 10)} m` : `${(metres / 1000).toFixed(1)} km`;

/** The 409 of an "I'm here" from outside the fence. */
export const outsideFenceMessage = (metres: number): string =>
  `You are ${distanceText(metres)} from the school; announce when you arrive`;

const digits = (text: string | null | undefined) => (text ?? '').replace(/\D/g, '');
const sameText = (a: string | null | undefined, b: string | null | undefined) =>
  !!a && !!b && a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The family's car today: of the school's active cars that collect any of
 * `riders` (the parent's children who go home by car today), the one that
 * collects the most of them; of those, the one whose contact is the parent
 * (phone, then name); then the first registered. None: the family has no car
 * on file (a walk-up).
 */
export const familyCar = <
  V extends Pick<Vehicle, 'id' | 'type' | 'active' | 'studentIds' | 'parentName' | 'parentPhone'>,
>(
  riders: readonly number[],
  vehicles: readonly V[],
  parent: { name: string; phone: string | null },
): V | undefined => {
  const wanted = new Set(riders);
  const score = (vehicle: V) => [
    vehicle.studentIds.filter((id) => wanted.has(id)).length,
    digits(parent.phone).length >= 7 && digits(vehicle.parentPhone) === digits(parent.phone) ? 1 : 0,
    sameText(vehicle.parentName, parent.name) ? 1 : 0,
  ];
  return vehicles
    .filter(
      (vehicle) =>
        vehicle.active && vehicle.type === 'car' && vehicle.studentIds.some((id) => wanted.has(id)),
    )
    .map((vehicle) => ({ vehicle, score: score(vehicle) }))
    .sort((a, b) => {
      for (let i = 0; i < a.score.length; i++) {
        const diff = (b.score[i] ?? 0) - (a.score[i] ?? 0);
        if (diff !== 0) return diff;
      }
      return a.vehicle.id - b.vehicle.id;
    })[0]?.vehicle;
};

/** How staff read an arrival's state. */
export const ARRIVAL_STATE_LABELS: Readonly<Record<ArrivalState, string>> = {
  on_the_way: 'On the way',
  here: 'Here',
};
/** What a teacher's row says about a child whose parent announced. */
export const TEACHER_ARRIVAL_LABELS: Readonly<Record<ArrivalState, string>> = {
  on_the_way: 'Parent arriving',
  here: 'Parent here',
};
/** What staff read for a family with no car on file. */
export const ON_FOOT_LABEL = 'Parent on foot';
