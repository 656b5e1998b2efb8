import type { SchoolDay } from './school-clock';

/** How a child goes home on a school day (issue 51; the rules are in `dismissal-plans.ts`). */
export type WayHome =
  | { mode: 'car' }
  | { mode: 'bus'; vehicleId: number }
  | { mode: 'walker' }
  | { mode: 'program'; programId: number };
/** A day's way home may also be: not at school. */
export type DayWay = WayHome | { mode: 'absent' };
export type WayMode = DayWay['mode'];

/** A student's default week: a way home for each school day. */
export type WeeklyPlan = Record<SchoolDay, WayHome>;
