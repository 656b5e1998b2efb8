import type { QueueEntry, VehicleType } from './queue';

/** A child's pickup as a parent sees it (specification §4 "Parent-visible student status"). */
export const PARENT_STATUSES = ['not_in_queue', 'in_queue', 'ready_for_pickup', 'picked_up'] as const;
export type ParentStatus = (typeof PARENT_STATUSES)[number];

/** The badge of each status; anything else reads 'Unknown'. */
export const PARENT_STATUS_LABELS: Readonly<Record<ParentStatus, string>> = {
  not_in_queue: 'Not in Queue',
  in_queue: 'In Queue',
  ready_for_pickup: 'Ready for Pickup',
  picked_up: 'Picked Up',
};
export const parentStatusLabel = (status: string): string =>
  (PARENT_STATUS_LABELS as Record<string, string>)[status] ?? 'Unknown';

/** A linked child (`GET /api/parent/students`). */
export interface ParentChild {
  id: number;
  firstName: string;
  lastName: string;
  grade: string;
  schoolId: number;
  schoolName: string | null;
  /** The school's time zone (issue 51): the child's "today" is a day of the school's calendar. */
  timeZone: string;
}

/** A linked child's pickup now (`GET /api/parent/students/status`, the specification's fields). */
export interface ParentStudentStatus {
  id: number;
  firstName: string;
  lastName: string;
  grade: string;
  vehicleType: VehicleType | null;
  vehicleNumber: string | null;
  status: ParentStatus;
  /** Only while in_queue: the car's place in its type's line, its estimated wait in minutes, its batch. */
  queuePosition: number | null;
  estimatedWaitTime: number | null;
  batchNumber: number | null;
  entryTime: string | null;
  pickupTime: string | null;
}

/**
 * A child's status from what the session knows about them: the active queue
 * entry that carries them (if any), whether a teacher released them, and when
 * their pickup completed (if it did). A car in the queue wins over an earlier
 * pickup: the car came back.
 */
export const parentStatusOf = (
  entry: Pick<QueueEntry, 'status'> | undefined,
  releasedAt: string | null,
  pickedUpAt: string | null,
): ParentStatus => {
  if (entry) return entry.status === 'ready' || releasedAt ? 'ready_for_pickup' : 'in_queue';
  return pickedUpAt ? 'picked_up' : 'not_in_queue';
};

/**
 * Pickups per minute assumed before a session has data (a car line loads a
 * batch of cars every couple of minutes; a bus takes longer).
 */
export const DEFAULT_PICKUPS_PER_MINUTE: Readonly<Record<VehicleType, number>> = { car: 4, bus: 0.5 };
/** How far back completed pickups count towards the rate. */
export const WAIT_RATE_WINDOW_MS = 10 * 60 * 1000;
/** Fewer completed pickups than this in the window and the default rate is used. */
export const WAIT_RATE_MIN_PICKUPS = 3;

/**
 * The rate at which the session has been completing pickups of one vehicle
 * type, in pickups per minute:
 *
 *   rate = n / max(1, (now − t_oldest) / 60,000)
 *
 * where n is the number of that type's pickups completed in the last 10
 * minutes and t_oldest the oldest of them: the pickups of the window over the
 * minutes they took to happen (at least one). With fewer than 3 such pickups
 * the rate is the default of the vehicle type.
 */
export const pickupRate = (
  completedAt: readonly string[],
  type: VehicleType,
  now: number = Date.now(),
): number => {
  const recent = completedAt
    .map((time) => Date.parse(time))
    .filter((time) => Number.isFinite(time) && time <= now && now - time <= WAIT_RATE_WINDOW_MS);
  if (recent.length < WAIT_RATE_MIN_PICKUPS) return DEFAULT_PICKUPS_PER_MINUTE[type];
  const minutes = Math.max(1, (now - Math.min(...recent)) / 60_000);
  return recent.length / minutes;
};

/**
 * A car's estimated wait in whole minutes: its place in the line over the
 * rate, rounded up (the car at position p waits for the p − 1 cars ahead and
 * its own loading): wait = ⌈p / rate⌉, at least 1.
 */
export const estimatedWaitMinutes = (position: number, ratePerMinute: number): number =>
  Math.max(1, Math.ceil(position / Math.max(ratePerMinute, 0.01)));

/**
 * How a family's screens name each of its children: the first name, or the
 * full name where two children share a first name (step-siblings, cousins
 * followed by one parent), so every card says which child it is about.
 */
export const childLabels = (
  children: ReadonlyArray<{ id: number; firstName: string; lastName: string }>,
): Map<number, string> => {
  const key = (name: string) => name.trim().toLocaleLowerCase();
  const count = new Map<string, number>();
  for (const child of children) count.set(key(child.firstName), (count.get(key(child.firstName)) ?? 0) + 1);
  return new Map(
    children.map((child) => [
      child.id,
      (count.get(key(child.firstName)) ?? 0) > 1 ? `${child.firstName} ${child.lastName}` : child.firstName,
    ]),
  );
};
