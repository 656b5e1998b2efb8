import { ConflictError } from './errors';
import type { DayWay } from './ways';

/** Vehicles, queue entries and alerts (specification §3, §4, §5). */
export const VEHICLE_TYPES = ['car', 'bus'] as const;
export type VehicleType = (typeof VEHICLE_TYPES)[number];

export const QUEUE_STATUSES = ['waiting', 'ready', 'overflow', 'completed'] as const;
export type QueueStatus = (typeof QUEUE_STATUSES)[number];

/** An entry waiting more than 10 minutes is highlighted. */
export const OVERDUE_MS = 600_000;

export interface Vehicle {
  id: number;
  schoolId: number;
  number: string;
  type: VehicleType;
  active: boolean;
  parentName: string | null;
  parentPhone: string | null;
  alternateContactName: string | null;
  alternateContactPhone: string | null;
  make: string | null;
  model: string | null;
  color: string | null;
  licensePlate: string | null;
  notes: string | null;
  studentIds: number[];
}

export interface StudentSummary {
  id: number;
  firstName: string;
  lastName: string;
  grade: string;
  classroomId: number | null;
}

/** A child a visit does not call today (absent, on a bus, walking, at a program, in another car), and why (issue 52). */
export interface NotCalledStudent extends StudentSummary {
  way: DayWay;
  /** `Absent today`, `Bus B3 today`, `Walker today`, `Kids Club today`, `Car 112 today`. */
  reason: string;
}

export interface QueueEntry {
  id: string;
  sessionId: number;
  schoolId: number;
  vehicleId: number | null;
  vehicleNumber: string;
  vehicleType: VehicleType;
  batchId: number | null;
  batchNumber: number | null;
  status: QueueStatus;
  /** 1-based place in its type's line, dense; completed entries have none. */
  position: number | null;
  entryTime: string;
  queueTime: string;
  exitTime: string | null;
  vehicle: Omit<Vehicle, 'studentIds' | 'schoolId'> | null;
  /** The children the visit calls: those whose way home today goes with this vehicle (issue 52). */
  students: StudentSummary[];
  /** `announcement`: queued by the family's own "I'm here" (issue 53, a school in `auto` arrival mode). */
  queuedBy?: 'announcement';
  /**
   * The children the vehicle is registered with (or, for a bus, usually
   * carries) who go home another way today, with the reason: shown struck
   * through, never called. Absent on visits queued before issue 52.
   */
  notCalled?: NotCalledStudent[];
  /**
   * Raised by every change to the visit (1 when queued). Writes are held to
   * the version the caller read, and a screen keeps the higher of two copies.
   */
  version: number;
}

/** Another tablet changed the entry between this one's read and its write. */
export const changedMeanwhileError = (entry: Pick<QueueEntry, 'vehicleNumber'>) =>
  new ConflictError(`Vehicle ${entry.vehicleNumber} was changed by someone else. Refresh and try again.`);

/**
 * A change aimed at a visit that has ended: the car was picked up, or removed
 * from the queue (a second dismissal of one overflow car). Ids are never
 * reused, so the change never lands on a later visit of the same car.
 */
export type VisitEnd = 'pickedUp' | 'removed';
export const visitEndedError = (entry: Pick<QueueEntry, 'vehicleNumber'>, end: VisitEnd) =>
  new ConflictError(
    end === 'pickedUp'
      ? `Vehicle ${entry.vehicleNumber} was already picked up`
      : `Vehicle ${entry.vehicleNumber} was already removed from the queue`,
  );

/** Vehicle numbers: what the keypad and a placard can show. */

/**
 * What is wrong with a vehicle number as typed, or null: the rule of `vehicleNumberSchema`
 * without zod, for the front queue's form (its first load carries no schema library).
 */
export const vehicleNumberProblem = (value: string): string | null => {
  const number = value.trim();
  if (number.length === 0) return 'Vehicle number is required';
  if (number.length > 12) return 'Vehicle number is too long';
  if (!/^[A-Za-z0-9]+$/.test(number)) return 'Vehicle number can only contain letters and digits';
  return null;
};

/**
 * Status changes a queue entry may make. Completed is final; an entry in a
 * batch leaves it by going back to waiting or to overflow.
 */
const TRANSITIONS: Readonly<Record<QueueStatus, readonly QueueStatus[]>> = {
  waiting: ['ready', 'overflow', 'completed'],
  ready: ['waiting', 'overflow', 'completed'],
  overflow: ['waiting', 'completed'],
  completed: [],
};

export const canTransition = (from: QueueStatus, to: QueueStatus): boolean =>
  from === to ? from !== 'completed' : TRANSITIONS[from].includes(to);

/**
 * Dense positions: active entries of each type in arrival order get 1..n.
 * Sorted by entry time, then id, so every reader sees the same order.
 */
export const orderQueue = <T extends Pick<QueueEntry, 'entryTime' | 'id' | 'vehicleType' | 'status'>>(
  entries: readonly T[],
): Array<T & { position: number | null }> => {
  const sorted = [...entries].sort((a, b) =>
    a.entryTime === b.entryTime ? (a.id < b.id ? -1 : 1) : a.entryTime < b.entryTime ? -1 : 1,
  );
  const next: Record<VehicleType, number> = { car: 0, bus: 0 };
  return sorted.map((entry) =>
    entry.status === 'completed'
      ? { ...entry, position: null }
      : { ...entry, position: ++next[entry.vehicleType] },
  );
};

/** Where an entry stands: `1st from front, 3rd from back` or `Only vehicle in queue`. */
export const positionLabel = (position: number, total: number, ordinal: (n: number) => string): string =>
  total <= 1
    ? 'Only vehicle in queue'
    : `${ordinal(position)} from front, ${ordinal(total - position + 1)} from back`;

/** Case-insensitive search over vehicle number, parent name, make, model, color and student names. */
export const matchesQueueSearch = (
  entry: Pick<QueueEntry, 'vehicleNumber' | 'vehicle' | 'students'>,
  search: string,
): boolean => {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  const fields = [
    entry.vehicleNumber,
    entry.vehicle?.parentName,
    entry.vehicle?.make,
    entry.vehicle?.model,
    entry.vehicle?.color,
    ...entry.students.flatMap((student) => [student.firstName, student.lastName]),
  ];
  return fields.some((field) => field?.toLowerCase().includes(needle));
};

export const ALERT_TYPES = ['emergency', 'help'] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

export interface Alert {
  id: number;
  sessionId: number | null;
  schoolId: number;
  type: AlertType;
  status: 'active' | 'dismissed';
  location: string;
  message: string;
  createdAt: string;
  dismissedAt: string | null;
  priority?: 'medium' | 'critical';
  title?: string;
  source?: string;
  metadata?: Record<string, unknown>;
  /** The staff member who raised it from a screen (a bus driver's alert has none: see `alertRaiser`). */
  raisedBy?: { userId: number; name: string } | null;
  /** Who said "I'm on it", first first; one entry per user. */
  acknowledgements?: AlertAcknowledgement[];
  /** Who dismissed it (issue 50: a driver's page says "Closed by …"); absent while active, and on older alerts. */
  dismissedBy?: { userId: number; name: string } | null;
}

/** A staff member's "I'm on it" on an alert: who (their display name) and when. */
export interface AlertAcknowledgement {
  userId: number;
  name: string;
  at: string;
}

/** Who raised an alert, as the banner says it: a user's name, `Bus 3 driver`, or `a bus driver` (no bus chosen yet). */
export const alertRaiser = (alert: Pick<Alert, 'raisedBy' | 'source' | 'metadata' | 'location'>): string => {
  if (alert.raisedBy) return alert.raisedBy.name;
  if (alert.source === 'bus_driver') {
    const { busName, busId } = (alert.metadata ?? {}) as { busName?: string; busId?: string | null };
    if (!busName && !busId) return 'a bus driver';
    return `${busName || `Bus ${busId}`} driver`;
  }
  return 'Staff';
};

/** Where a driver's alert is when the driver has not chosen their bus yet (issue 50: Help does not wait). */
export const NO_BUS_CHOSEN = 'Bus not chosen';

/** The banner's line of who owns an alert: `Ms Lopez is on it`, `Ms Lopez and Mr Kim are on it`. */
export const alertOwners = (
  acknowledgements: readonly Pick<AlertAcknowledgement, 'name'>[] = [],
): string | null => {
  const names = acknowledgements.map((ack) => ack.name);
  if (names.length === 0) return null;
  if (names.length === 1) return `${names[0]} is on it`;
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]} are on it`;
};

export const alertMessage = (type: AlertType, location: string) =>
  type === 'emergency' ? `Emergency assistance needed at ${location}` : `Help requested at ${location}`;

export const BATCH_STATUSES = ['loading', 'completed'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

/** Default batch capacities, a school setting per vehicle type. */
export const DEFAULT_BATCH_CAPACITY: Readonly<Record<VehicleType, number>> = { car: 8, bus: 4 };

export interface Batch {
  id: number;
  sessionId: number;
  schoolId: number;
  batchNumber: number;
  vehicleType: VehicleType;
  status: BatchStatus;
  currentCount: number;
  maxCapacity: number;
  startTime: string;
  endTime: string | null;
  /** Raised by every change to the batch (count, status); a screen keeps the higher of two copies. */
  version: number;
}

/** The vehicle add-to-batch takes: the first waiting, batch-less entry of the batch's type. */
export const nextForBatch = <T extends Pick<QueueEntry, 'status' | 'batchId' | 'vehicleType'>>(
  ordered: readonly T[],
  vehicleType: VehicleType,
): T | undefined =>
  ordered.find(
    (entry) => entry.vehicleType === vehicleType && entry.status === 'waiting' && entry.batchId === null,
  );

/** Whole minutes a batch took, rounded. */
export const batchMinutes = (batch: Pick<Batch, 'startTime' | 'endTime'>, now = Date.now()): number =>
  Math.round(((batch.endTime ? Date.parse(batch.endTime) : now) - Date.parse(batch.startTime)) / 60_000);
