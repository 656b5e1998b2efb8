import { vehicleLabel } from './car-line';
import { formatDuration, shortName } from './format';
import type { QueueEntry, Vehicle, VehicleType } from './queue';
import { compareNumbers, type RosterCounts, type StudentStats } from './roster';

/** The school admin screen and the placards page (specification §2, §9). */

/** Wait time target: under 10 minutes; the bar fills to wait minutes over 10, capped at 100%. */
export const WAIT_TARGET_MINUTES = 10;
export const waitBarPercent = (seconds: number): number =>
  Math.min(100, Math.max(0, (seconds / 60 / WAIT_TARGET_MINUTES) * 100));

/** Average of the waits so far (now − queue time) of the entries, in whole seconds; 0 with none. */
export const averageWaitSeconds = (
  entries: ReadonlyArray<Pick<QueueEntry, 'queueTime'>>,
  now = Date.now(),
) =>
  entries.length === 0
    ? 0
    : Math.round(
        entries.reduce((sum, entry) => sum + Math.max(0, now - Date.parse(entry.queueTime)), 0) /
          entries.length /
          1000,
      );

/** Children of an entry as the overview shows them: `Ava M., Liam J.` or `No children`. */
export const childrenLabel = (entry: Pick<QueueEntry, 'students'>): string =>
  entry.students.length === 0 ? 'No children' : entry.students.map(shortName).join(', ');

/** Family (cars) or route (buses) of an entry. */
export const familyLabel = (entry: Pick<QueueEntry, 'vehicle'>): string =>
  entry.vehicle?.parentName?.trim() || '—';

/** Status as the overview shows it: every active entry is 'In Queue'; the filter also tells them apart. */
export const OVERVIEW_STATUS_LABEL: Readonly<Record<QueueEntry['status'], string>> = {
  waiting: 'In Queue',
  ready: 'In Queue',
  overflow: 'In Queue',
  completed: 'Completed',
};

export type OverviewTypeFilter = 'all' | VehicleType;
export type OverviewStatusFilter = 'all' | 'waiting' | 'batched' | 'ready' | 'overflow';

/** Where an active entry stands, as the overview's status filter names it. */
export const overviewStage = (
  entry: Pick<QueueEntry, 'status' | 'batchId'>,
): Exclude<OverviewStatusFilter, 'all'> =>
  entry.status === 'overflow'
    ? 'overflow'
    : entry.status === 'ready'
      ? 'ready'
      : entry.batchId !== null
        ? 'batched'
        : 'waiting';

export const filterOverview = <T extends Pick<QueueEntry, 'vehicleType' | 'status' | 'batchId'>>(
  entries: readonly T[],
  type: OverviewTypeFilter,
  status: OverviewStatusFilter,
): T[] =>
  entries.filter(
    (entry) =>
      (type === 'all' || entry.vehicleType === type) && (status === 'all' || overviewStage(entry) === status),
  );

export const OVERVIEW_CSV_HEADER = [
  'ID',
  'Type',
  'Family/Route',
  'Children',
  'Status',
  'Batch',
  'Queued At',
  'Wait Time',
] as const;

/** The Complete Queue Overview as CSV rows (header first), for its Export button. */
export const overviewCsvRows = (entries: ReadonlyArray<QueueEntry>, now = Date.now()): string[][] => [
  [...OVERVIEW_CSV_HEADER],
  ...entries.map((entry) => [
    vehicleLabel(entry.vehicleType, entry.vehicleNumber),
    entry.vehicleType === 'bus' ? 'Bus' : 'Car',
    familyLabel(entry),
    entry.students.map((student) => `${student.firstName} ${student.lastName}`).join('; ') || 'No children',
    stageLabel(entry),
    entry.batchNumber === null ? '' : `#${entry.batchNumber}`,
    entry.queueTime,
    formatDuration(Math.max(0, Math.round((now - Date.parse(entry.queueTime)) / 1000))),
  ]),
];

const STAGE_LABEL: Readonly<Record<Exclude<OverviewStatusFilter, 'all'>, string>> = {
  waiting: 'Waiting',
  batched: 'In Batch',
  ready: 'Ready',
  overflow: 'Overflow',
};
export const stageLabel = (entry: Pick<QueueEntry, 'status' | 'batchId'>) =>
  STAGE_LABEL[overviewStage(entry)];

// ---------------------------------------------------------------------------
// Placards.

/** At most 10 cars and 5 buses by default; large placards 4 per row, lanyards 8 per row. */
export const PLACARD_LIMITS = { car: 10, bus: 5 } as const;
export const PLACARD_COLUMNS = { large: 4, small: 8 } as const;
export const PLACARD_PRINT_DELAY_MS = 250;
/** The page's fixed texts, used when the school's record has no name. */
export const PLACARD_FALLBACK_SCHOOL = 'School Pickup';
export const PLACARD_MASCOT_TEXT = 'Car Line Pickup';

export interface Placard {
  type: VehicleType;
  number: string;
  /** What is printed: the number, buses with a `B` prefix. */
  label: string;
}

/**
 * The placards to print: active cars, then active buses, each sorted by
 * number the way people count (2 before 10); at most 10 cars and 5 buses
 * unless every vehicle is asked for.
 */
export const placardsFor = (
  vehicles: ReadonlyArray<Pick<Vehicle, 'type' | 'number' | 'active'>>,
  everyVehicle = false,
): Placard[] => {
  const pick = (type: VehicleType) =>
    vehicles
      .filter((vehicle) => vehicle.active && vehicle.type === type)
      .sort((a, b) => compareNumbers(a.number, b.number))
      .slice(0, everyVehicle ? undefined : PLACARD_LIMITS[type])
      .map((vehicle) => ({ type, number: vehicle.number, label: vehicleLabel(type, vehicle.number) }));
  return [...pick('car'), ...pick('bus')];
};

/** What the school admin screen reads besides the queue: tab counts and where the students are. */
export interface SchoolSummary {
  /** `readOnly`: the school (or its district) is in sandbox mode and the caller is not a super admin. */
  school: { id: number; name: string; sandbox: boolean; readOnly: boolean };
  counts: RosterCounts;
  /** Null without a session. */
  students: StudentStats | null;
}
