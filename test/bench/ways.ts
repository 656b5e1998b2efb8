/**
 * The bench school's ways home (issue 52): a share of the school as a real
 * one has, 60% car riders, 30% bus riders (spread over the buses) and 10%
 * walkers, as weekly plans the office set (written through the store, as the
 * rest of the school). On a day with no plan day (the bench run on a
 * weekend), the plans give everyone a car: the office's approved changes for
 * today then give the bus riders and walkers their way, so the rush is the
 * same any day.
 */
import {
  type DayWay,
  DEFAULT_RETENTION_DAYS,
  type DismissalChange,
  dateIn,
  everyDay,
  isSchoolDay,
  schoolClockOf,
  snapshotOf,
} from '@curbside/domain';
import { type Db, dismissalChanges, dismissalPlans, schools } from '@curbside/store';
import type { StaffAccount } from './school';
import { mapBounded } from './stats';

/** Each student's way by their place in the school: 6 in 10 by car, 3 by bus, 1 walks. */
export const wayOfIndex = (i: number): 'car' | 'bus' | 'walker' => {
  const tenth = i % 10;
  return tenth < 6 ? 'car' : tenth < 9 ? 'bus' : 'walker';
};

/** The bus riders' ways: rider k rides bus k mod buses. */
export const busWays = (
  riders: readonly number[],
  buses: ReadonlyArray<{ id: number }>,
): Array<{ studentId: number; way: DayWay }> =>
  buses.length === 0
    ? []
    : riders.map((studentId, k) => ({
        studentId,
        way: { mode: 'bus', vehicleId: (buses[k % buses.length] as { id: number }).id },
      }));

/** Writes the plans (and, on a day with no plan day, today's changes); answers the writes made. */
export const seedWaysHome = async (
  db: Db,
  input: {
    schoolId: number;
    admin: StaffAccount;
    buses: ReadonlyArray<{ id: number }>;
    busRiders: readonly number[];
    walkers: readonly number[];
  },
): Promise<number> => {
  const ways: Array<{ studentId: number; way: DayWay }> = [
    ...busWays(input.busRiders, input.buses),
    ...input.walkers.map((studentId) => ({ studentId, way: { mode: 'walker' } as DayWay })),
  ];
  const actor = { id: input.admin.userId, username: input.admin.username, role: input.admin.role };
  await dismissalPlans.setMany(
    db,
    ways.map(({ studentId, way }) => ({
      schoolId: input.schoolId,
      studentId,
      plan: everyDay(way as Parameters<typeof everyDay>[0]),
      before: undefined,
    })),
    actor,
    DEFAULT_RETENTION_DAYS,
  );
  const school = await schools.get(db, input.schoolId);
  if (!school) throw new Error(`School ${input.schoolId} not found`);
  const today = dateIn(schoolClockOf(school).timeZone);
  if (isSchoolDay(today)) return ways.length * 2;
  await seedDayChanges(db, { schoolId: input.schoolId, admin: input.admin, date: today, ways });
  return ways.length * 4;
};

/** Writes the office's approved change of each of `ways` for `date` (with its record), as a school's office would. */
export const seedDayChanges = async (
  db: Db,
  input: {
    schoolId: number;
    admin: StaffAccount;
    date: string;
    ways: ReadonlyArray<{ studentId: number; way: DayWay }>;
  },
): Promise<void> => {
  const actor = { id: input.admin.userId, username: input.admin.username, role: input.admin.role };
  const today = input.date;
  const person = { id: input.admin.userId, name: input.admin.username, role: input.admin.role };
  await mapBounded(input.ways, 8, async ({ studentId, way }) => {
    const now = new Date().toISOString();
    const change: DismissalChange = {
      id: await dismissalChanges.nextId(db),
      schoolId: input.schoolId,
      studentId,
      date: today,
      until: null,
      weekdays: null,
      way,
      status: 'approved',
      approvedAt: now,
      cancelledFrom: null,
      requestedBy: person,
      note: '',
      createdAt: now,
      decidedBy: person,
      decidedAt: now,
      reason: '',
      cancelledBy: null,
      cancelledAt: null,
      language: 'en',
    };
    await dismissalChanges.create(db, change, {
      actor,
      retentionDays: DEFAULT_RETENTION_DAYS,
      event: {
        schoolId: input.schoolId,
        studentId,
        at: now,
        actor,
        kind: 'change_requested',
        change: { before: null, after: snapshotOf(change) },
      },
    });
  });
};
