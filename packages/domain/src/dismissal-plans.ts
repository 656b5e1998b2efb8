import * as z from 'zod';
import { optionalText, requiredText } from './roster';
import { isSchoolDay, SCHOOL_DAYS, type SchoolDay, weekdayOf } from './school-clock';
import type { DayWay, WayHome, WayMode, WayOptions, WeeklyPlan } from './ways';
import { sameWay, wayText } from './ways';

export type { DayWay, WayHome, WayMode, WayOptions, WeeklyPlan } from './ways';
export { namedCarOf, sameWay, wayText } from './ways';

/**
 * Every way home (issue 51, docs/adr/0021-every-way-home.md): the school's
 * after-school programs, each student's default weekly plan, and the one rule
 * that decides a child's way home on a day: the weekly plan, overridden by
 * that day's approved change (`wayHomeOn`).
 */

const positiveId = (message: string) =>
  z.coerce.number({ message }).int({ message }).positive({ message }).max(2_147_483_647, { message });

// ---------------------------------------------------------------------------
// Programs

export const PROGRAM_KINDS = ['after_care', 'activity'] as const;
export type ProgramKind = (typeof PROGRAM_KINDS)[number];

/** An after-school program a child can be dismissed to (Kids Club, Chess Club). */
export interface Program {
  id: number;
  schoolId: number;
  name: string;
  kind: ProgramKind;
  location: string | null;
  /** A program with students planned into it is deactivated, not deleted: plans and the record keep naming it. */
  active: boolean;
  createdAt: string;
}

/** `POST /api/programs`, `PUT /api/programs/{id}`. */
export const programInputSchema = z.object({
  name: requiredText('Program name', 60),
  kind: z.enum(PROGRAM_KINDS, { message: 'Kind must be after_care or activity' }),
  location: optionalText('Location', 100),
  /** Reactivates (or deactivates) the program; new programs are active. */
  active: z.boolean({ message: 'active must be true or false' }).optional(),
});
export type ProgramInput = z.output<typeof programInputSchema>;

// ---------------------------------------------------------------------------
// Ways home

const WAY_MESSAGE = 'Way home must be car, bus (with vehicleId), walker or program (with programId)';
/** A car's number as the placard shows it (what the office is told on the phone). */
const carNumber = z
  .string({ message: 'vehicleNumber must be a car number' })
  .trim()
  .min(1, 'vehicleNumber must be a car number')
  .max(12, 'vehicleNumber must be a car number')
  .regex(/^[A-Za-z0-9]+$/, 'vehicleNumber must be a car number');
const wayHomeOptions = [
  // Any car of the family; or one car, named by its id or its number (a friend's car for a day, issue 52).
  z.object({
    mode: z.literal('car'),
    vehicleId: positiveId('vehicleId must be the id of a car').optional(),
    vehicleNumber: carNumber.optional(),
  }),
  z.object({ mode: z.literal('bus'), vehicleId: positiveId('vehicleId must be the id of a bus') }),
  z.object({ mode: z.literal('walker') }),
  z.object({ mode: z.literal('program'), programId: positiveId('programId must be the id of a program') }),
] as const;
export const wayHomeSchema = z.discriminatedUnion('mode', [...wayHomeOptions], { error: WAY_MESSAGE });
export const dayWaySchema = z.discriminatedUnion(
  'mode',
  [...wayHomeOptions, z.object({ mode: z.literal('absent') })],
  {
    error: 'Way must be car, bus (with vehicleId), walker, program (with programId) or absent',
  },
);

export const weeklyPlanSchema = z.object(
  {
    mon: wayHomeSchema,
    tue: wayHomeSchema,
    wed: wayHomeSchema,
    thu: wayHomeSchema,
    fri: wayHomeSchema,
  },
  { error: 'Plan must give a way home for mon, tue, wed, thu and fri' },
);

/**
 * A nested value checked whole, its problem reported on the field itself
 * (`plan`, `way`), the inner place named in the message (`wed: …`): what a
 * form shows beside the field, and what every 400 of the API names.
 */
export const checkedWhole = <S extends z.ZodType>(schema: S) =>
  z.unknown().transform((value, context) => {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    const first = result.error.issues[0];
    const where = first?.path.filter((part) => part !== 'mode').join('.');
    context.addIssue({
      code: 'custom',
      message: `${where ? `${where}: ` : ''}${first?.message ?? 'Invalid value'}`,
      input: value,
    });
    return z.NEVER;
  }) as unknown as z.ZodType<z.output<S>, z.input<S>>;

/** `PUT /api/students/{id}/dismissal-plan`. */
export const dismissalPlanBodySchema = z.object({ plan: checkedWhole(weeklyPlanSchema) });

const CAR: WayHome = { mode: 'car' };
/** A student without a plan is a car rider every day. */
export const CAR_EVERY_DAY: WeeklyPlan = { mon: CAR, tue: CAR, wed: CAR, thu: CAR, fri: CAR };

/** The same way, every school day. */
export const everyDay = (way: WayHome): WeeklyPlan => ({ mon: way, tue: way, wed: way, thu: way, fri: way });

export const samePlan = (a: WeeklyPlan, b: WeeklyPlan): boolean =>
  SCHOOL_DAYS.every((day) => sameWay(a[day], b[day]));

/** The buses and programs a plan or change names. */
export const vehiclesOf = (ways: readonly DayWay[]) => [
  ...new Set(ways.flatMap((way) => (way.mode === 'bus' ? [way.vehicleId] : []))),
];
/**
 * The buses a weekly plan names, each with the days it names it (issue 54: a
 * bus's riders are kept by key from them). No plan: none.
 */
export const busDaysOf = (plan: WeeklyPlan | null | undefined): Map<number, SchoolDay[]> => {
  const buses = new Map<number, SchoolDay[]>();
  for (const day of SCHOOL_DAYS) {
    const way = plan?.[day];
    if (way?.mode === 'bus') buses.set(way.vehicleId, [...(buses.get(way.vehicleId) ?? []), day]);
  }
  return buses;
};
export const programsOf = (ways: readonly DayWay[]) => [
  ...new Set(ways.flatMap((way) => (way.mode === 'program' ? [way.programId] : []))),
];

const DAY_LABEL: Record<SchoolDay, string> = { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri' };

/**
 * A week in a line: `Car rider` when every day is the same; otherwise the
 * usual way and the days that differ (`Bus B3; Fri: Walker`).
 */
export const weeklyPlanText = (plan: WeeklyPlan | null, options: WayOptions): string => {
  const week = plan ?? CAR_EVERY_DAY;
  const texts = SCHOOL_DAYS.map((day) => wayText(week[day], options));
  const counts = new Map<string, number>();
  for (const text of texts) counts.set(text, (counts.get(text) ?? 0) + 1);
  const usual = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'Car rider';
  const others = SCHOOL_DAYS.filter((_, i) => texts[i] !== usual).map(
    (day) => `${DAY_LABEL[day]}: ${wayText(week[day], options)}`,
  );
  return [usual, ...others].join('; ');
};

// ---------------------------------------------------------------------------
// The CSV `dismissal` column (students import)

/**
 * One cell of the students file's `dismissal` column: `car`, `walker`,
 * `bus:<number>`, `program:<name>`, or five of them separated by `|` for
 * Monday to Friday. Blank: the plan stays as it is. Answers the week, or the
 * message of the row error.
 */
export const parseDismissalCell = (
  cell: string,
  options: {
    buses: ReadonlyArray<{ id: number; number: string }>;
    programs: ReadonlyArray<{ id: number; name: string; active: boolean }>;
  },
): { plan: WeeklyPlan } | { error: string } => {
  const parts = cell.split('|').map((part) => part.trim());
  if (parts.length !== 1 && parts.length !== 5) {
    return { error: 'Dismissal must be one way home, or five separated by | for Monday to Friday' };
  }
  const ways: WayHome[] = [];
  for (const part of parts) {
    const [kind = '', ...rest] = part.split(':');
    const value = rest.join(':').trim();
    switch (kind.trim().toLowerCase()) {
      case 'car':
      case 'walker':
        if (value) return { error: `Unknown way home "${part}"` };
        ways.push({ mode: kind.trim().toLowerCase() as 'car' | 'walker' });
        break;
      case 'bus': {
        const number = value.replace(/^b/i, '').toUpperCase();
        const bus = options.buses.find((found) => found.number.toUpperCase() === number);
        if (!bus)
          return { error: `No bus ${value || '(blank)'} is registered. Add it in the Vehicles tab first.` };
        ways.push({ mode: 'bus', vehicleId: bus.id });
        break;
      }
      case 'program': {
        const program = options.programs.find(
          (found) => found.active && found.name.toLowerCase() === value.toLowerCase(),
        );
        if (!program)
          return { error: `No program named ${value || '(blank)'}. Add it under Programs first.` };
        ways.push({ mode: 'program', programId: program.id });
        break;
      }
      default:
        return { error: `Unknown way home "${part}": use car, walker, bus:<number> or program:<name>` };
    }
  }
  const [mon, tue = mon, wed = mon, thu = mon, fri = mon] = ways as [WayHome, ...WayHome[]];
  return { plan: { mon, tue, wed, thu, fri } };
};

// ---------------------------------------------------------------------------
// A day's way home

/** What `wayHomeOn` needs of a dated change (see `dismissal-changes.ts`). */
export interface ChangeOnDay {
  id: number;
  date: string;
  until: string | null;
  weekdays: readonly SchoolDay[] | null;
  way: DayWay;
  status: 'approved' | 'pending' | 'denied' | 'cancelled';
  /** When it was approved (at once, or by the office); null while never approved. */
  approvedAt: string | null;
  /** A cancelled change that had been approved still held on the days before this one. */
  cancelledFrom: string | null;
}

/** Whether a change falls on a date: its one day, or a school day of its range on its weekdays. */
export const changeOccursOn = (change: Pick<ChangeOnDay, 'date' | 'until' | 'weekdays'>, date: string) => {
  if (change.until === null) return date === change.date;
  if (date < change.date || date > change.until || !isSchoolDay(date)) return false;
  return change.weekdays === null || change.weekdays.includes(weekdayOf(date) as SchoolDay);
};

/** Whether a change decides a date's way home: it falls on it and was approved (and not cancelled before it). */
export const changeAppliesOn = (change: ChangeOnDay, date: string) =>
  changeOccursOn(change, date) &&
  (change.status === 'approved' ||
    (change.status === 'cancelled' &&
      change.approvedAt !== null &&
      change.cancelledFrom !== null &&
      date < change.cancelledFrom));

/** One student's way home on a date, and where it came from (`GET /api/dismissal-plan`). */
export interface PlanEntry {
  studentId: number;
  way: DayWay;
  source: 'default' | 'change';
  changeId?: number;
  /** A change's day (issue 52): the way the weekly plan gave, and the change's note ('' when none). */
  usual?: DayWay;
  note?: string;
}

/**
 * The rule of the product: a child's way home on a date is their weekly
 * plan's (a car rider without one; no plan day on a weekend: car), unless an
 * approved change applies that day; of several, the one approved last wins.
 */
export const wayHomeOn = (
  studentId: number,
  date: string,
  plan: WeeklyPlan | null | undefined,
  changes: readonly ChangeOnDay[],
): PlanEntry => {
  const winner = changes
    .filter((change) => changeAppliesOn(change, date))
    .sort((a, b) => (a.approvedAt ?? '').localeCompare(b.approvedAt ?? '') || a.id - b.id)
    .at(-1);
  const day = weekdayOf(date);
  const week = plan ?? CAR_EVERY_DAY;
  const usual = isSchoolDay(date) ? week[day as SchoolDay] : CAR;
  if (winner) {
    return {
      studentId,
      way: winner.way,
      source: 'change',
      changeId: winner.id,
      usual,
      note: (winner as { note?: string }).note ?? '',
    };
  }
  return { studentId, way: usual, source: 'default' };
};

/** Counts of a day's plan by way home (the admin's "Today's changes" card). */
export const countByMode = (entries: ReadonlyArray<Pick<PlanEntry, 'way'>>): Record<WayMode, number> => {
  const counts: Record<WayMode, number> = { car: 0, bus: 0, walker: 0, program: 0, absent: 0 };
  for (const entry of entries) counts[entry.way.mode]++;
  return counts;
};
