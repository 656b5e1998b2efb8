import type { SchoolDay } from './school-clock';

/**
 * How a child goes home on a school day (issue 51; the rules are in
 * `dismissal-plans.ts`). A car is any car that lists the child, unless the
 * way names one (issue 52: a friend's car, Grandma's car for a day), by its
 * vehicle id and its number as it was when the way was given.
 */
export type WayHome =
  | { mode: 'car'; vehicleId?: number; vehicleNumber?: string }
  | { mode: 'bus'; vehicleId: number }
  | { mode: 'walker' }
  | { mode: 'program'; programId: number };
/** A day's way home may also be: not at school. */
export type DayWay = WayHome | { mode: 'absent' };
export type WayMode = DayWay['mode'];

/** A student's default week: a way home for each school day. */
export type WeeklyPlan = Record<SchoolDay, WayHome>;

/** What the school offers: its buses (vehicle id and number) and its programs. */
export interface WayOptions {
  buses: Array<{ id: number; number: string }>;
  programs: Array<{
    id: number;
    name: string;
    kind: 'after_care' | 'activity';
    location: string | null;
    active: boolean;
  }>;
}

/** The car a way names, if any. */
export const namedCarOf = (way: DayWay): number | undefined =>
  way.mode === 'car' ? way.vehicleId : undefined;

export const sameWay = (a: DayWay, b: DayWay): boolean =>
  a.mode === b.mode &&
  (a.mode !== 'car' || a.vehicleId === (b as { vehicleId?: number }).vehicleId) &&
  (a.mode !== 'bus' || a.vehicleId === (b as { vehicleId: number }).vehicleId) &&
  (a.mode !== 'program' || a.programId === (b as { programId: number }).programId);

/** A way as staff read it: `Car rider`, `Car 112`, `Bus B3`, `Walker`, `Kids Club`, `Absent`. */
export const wayText = (way: DayWay, options: WayOptions): string => {
  switch (way.mode) {
    case 'car':
      return way.vehicleNumber ? `Car ${way.vehicleNumber}` : 'Car rider';
    case 'walker':
      return 'Walker';
    case 'absent':
      return 'Absent';
    case 'bus': {
      const bus = options.buses.find((found) => found.id === way.vehicleId);
      return bus ? `Bus B${bus.number}` : 'Bus';
    }
    case 'program':
      return options.programs.find((found) => found.id === way.programId)?.name ?? 'Program';
  }
};
