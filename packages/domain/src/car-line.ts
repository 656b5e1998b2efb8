import type { Alert, AlertType, QueueEntry, Vehicle, VehicleType } from './queue';
import { OVERDUE_MS } from './queue';

/** Screen rules of the car line: press gestures, labels, toasts and alert sounds (§2, §8, §9). */

/** Long press lengths (ms): the vehicle card menu and the help alert 800, the emergency alert 1000. */
export const LONG_PRESS_MS = { cardMenu: 800, help: 800, emergency: 1000 } as const;

/** A horizontal swipe longer than this (px) removes a vehicle from the queue. */
export const SWIPE_REMOVE_PX = 300;

/** How a vehicle number is shown: buses carry a `B` prefix (`B3`), cars show the bare number. */
export const vehicleLabel = (type: VehicleType, number: string): string =>
  type === 'bus' ? `B${number}` : number;

/** `Car 12` or `Bus B3`. */
export const vehicleName = (type: VehicleType, number: string): string =>
  `${type === 'bus' ? 'Bus' : 'Car'} ${vehicleLabel(type, number)}`;

type Looks = Partial<Pick<Vehicle, 'make' | 'model' | 'color'>>;

/** `Toyota Camry (Silver)`, `Toyota`, `Silver`; null when make, model and color are all unknown. */
export const vehicleDescription = (vehicle: Looks | null | undefined): string | null => {
  const clean = (value: string | null | undefined) => value?.trim() || null;
  const base = [clean(vehicle?.make), clean(vehicle?.model)].filter(Boolean).join(' ');
  const color = clean(vehicle?.color);
  if (base && color) return `${base} (${color})`;
  return base || color || null;
};

export const NO_VEHICLE_DETAILS = 'Vehicle details unavailable';
export const NO_PRIMARY_CONTACT = 'No primary contact';
export const NO_SECONDARY_CONTACT = 'No secondary contact';

/** The vehicle a VEHICLE_QUEUED live event carries. */
export interface QueuedVehicle {
  number: string;
  type: VehicleType;
  make: string | null;
  model: string | null;
  color: string | null;
  parentName: string | null;
  alternateContactName: string | null;
}

/** The primary and secondary contact lines, with the specification's fallbacks. */
export const contactLines = (
  vehicle: Partial<Pick<QueuedVehicle, 'parentName' | 'alternateContactName'>> | null | undefined,
): [primary: string, secondary: string] => {
  const primary = vehicle?.parentName?.trim();
  const secondary = vehicle?.alternateContactName?.trim();
  return [
    primary ? `Primary contact: ${primary}` : NO_PRIMARY_CONTACT,
    secondary ? `Secondary contact: ${secondary}` : NO_SECONDARY_CONTACT,
  ];
};

/** The marker of a queued vehicle whose number is not on the school's roster. */
export const NOT_REGISTERED = 'Not registered';
/** What the add confirmation says about such a vehicle. */
export const NOT_REGISTERED_NOTE = 'Not registered: this number is not on the school’s vehicle list';

/** A queue entry whose number matched no registered vehicle (walk-ups, typos). */
export const isUnregistered = (entry: Pick<QueueEntry, 'vehicleId'>): boolean => entry.vehicleId === null;

/**
 * The toast every staff screen shows when a vehicle is queued:
 * title `Vehicle added successfully:`, then `Car 12: Toyota Camry (Silver)`
 * (or `Vehicle details unavailable`) and the two contact lines; a vehicle not
 * on the roster adds {@link NOT_REGISTERED_NOTE}.
 */
export const vehicleQueuedToast = (vehicle: Partial<QueuedVehicle> | null | undefined, registered = true) => {
  const details = vehicleDescription(vehicle) ?? NO_VEHICLE_DETAILS;
  const name = vehicle?.number ? vehicleName(vehicle.type ?? 'car', vehicle.number) : null;
  return {
    title: 'Vehicle added successfully:',
    lines: [
      name ? `${name}: ${details}` : details,
      ...contactLines(vehicle),
      ...(registered ? [] : [NOT_REGISTERED_NOTE]),
    ],
  };
};

/** Waiting longer than 10 minutes since it was queued (strictly more). */
export const isOverdue = (entry: Pick<QueueEntry, 'queueTime'>, now: number = Date.now()): boolean =>
  now - Date.parse(entry.queueTime) > OVERDUE_MS;

/** Seconds from joining the queue to leaving it (exitTime − queueTime); null before it left. */
export const waitSeconds = (entry: Pick<QueueEntry, 'queueTime' | 'exitTime'>): number | null =>
  entry.exitTime === null
    ? null
    : Math.max(0, Math.round((Date.parse(entry.exitTime) - Date.parse(entry.queueTime)) / 1000));

/** One tone of an alert sound: frequency (Hz), start and length (s) from the moment it plays. */
export interface Tone {
  frequency: number;
  start: number;
  duration: number;
}

/** Emergency: three 880 Hz beeps 300 ms apart; help: one 440 Hz tone of 0.5 s. */
export const ALERT_TONES: Readonly<Record<AlertType, readonly Tone[]>> = {
  emergency: [0, 0.3, 0.6].map((start) => ({ frequency: 880, start, duration: 0.2 })),
  help: [{ frequency: 440, start: 0, duration: 0.5 }],
};

/**
 * An emergency nobody has acknowledged sounds again this often (ms) on every
 * staff screen, until someone says "I'm on it" or dismisses it; help sounds once.
 */
export const ALERT_REPEAT_MS = 30_000;

/** Whether an alert still calls for its sound to be repeated: an active, unacknowledged emergency. */
export const alertRepeats = (alert: Pick<Alert, 'type' | 'status' | 'acknowledgements'>): boolean =>
  alert.type === 'emergency' && alert.status === 'active' && (alert.acknowledgements?.length ?? 0) === 0;

/** The toast announcing an alert: emergencies stay until closed (`autoClose: false`). */
export const alertAnnouncement = (
  alert: Pick<Alert, 'type' | 'message' | 'location' | 'title'>,
  raisedHere = false,
) => {
  const message =
    alert.message || `${alert.type === 'emergency' ? 'Emergency' : 'Help'} at ${alert.location}`;
  return {
    title: alert.title || (alert.type === 'emergency' ? 'EMERGENCY ALERT' : 'Help Requested'),
    // The screen that raised it is told who now knows.
    message: raisedHere ? `${message}. ${ALERT_SENT_NOTE}` : message,
    autoClose: alert.type === 'emergency' ? (false as const) : undefined,
  };
};

/** What the screen that raised an alert is told besides the alert itself. */
export const ALERT_SENT_NOTE = 'The school admin has been notified.';

/** The kind of an alert as the banner's one line starts (issue 50). */
export const ALERT_KIND: Readonly<Record<AlertType, string>> = { emergency: 'EMERGENCY', help: 'HELP' };

/** How many alerts the banner shows before `+N more` (issue 50): the add action stays on the first screen. */
export const BANNER_ALERTS_SHOWN = 2;

/** The banner's order: the most severe first (emergencies before help), then the newest first. */
export const bySeverity = (
  a: Pick<Alert, 'type' | 'createdAt' | 'id'>,
  b: Pick<Alert, 'type' | 'createdAt' | 'id'>,
): number =>
  Number(b.type === 'emergency') - Number(a.type === 'emergency') ||
  b.createdAt.localeCompare(a.createdAt) ||
  b.id - a.id;

/** The alert button texts: `Help Requested` / `EMERGENCY ACTIVE` while that alert is active. */
export const alertButtonLabel = (type: AlertType, active: boolean): string =>
  type === 'emergency' ? (active ? 'EMERGENCY ACTIVE' : 'Emergency') : active ? 'Help Requested' : 'Help';
