import * as z from 'zod';
import { cutoffMessage } from './change-cutoff';
import {
  type ChangeOnDay,
  checkedWhole,
  dayWaySchema,
  type PlanEntry,
  type WayOptions,
  type WeeklyPlan,
} from './dismissal-plans';
import { ConflictError, ValidationError } from './errors';
import type { DismissalActor } from './record';
import type { Role } from './roles';
import {
  addDays,
  daysBetween,
  isCalendarDate,
  isSchoolDay,
  SCHOOL_DAYS,
  type SchoolDay,
  weekdayOf,
} from './school-clock';

/**
 * Dated changes of a child's way home (issue 51): a family's request or the
 * office's entry for a day (or a repeating range), the school's cutoff for
 * today, approval, and what the record keeps of each.
 */

export const CHANGE_STATUSES = ['approved', 'pending', 'denied', 'cancelled'] as const;
export type ChangeStatus = (typeof CHANGE_STATUSES)[number];

/** Who asked, decided or cancelled: enough for the office's list and the record. */
export interface ChangePerson {
  id: number;
  name: string;
  role: Role;
}

export interface DismissalChange extends ChangeOnDay {
  schoolId: number;
  studentId: number;
  requestedBy: ChangePerson;
  /** Plain text from the family or the office, at most 500 characters ('' when none). */
  note: string;
  createdAt: string;
  decidedBy: ChangePerson | null;
  decidedAt: string | null;
  /** Why the office denied it (or ''). */
  reason: string;
  cancelledBy: ChangePerson | null;
  cancelledAt: string | null;
  /** The portal's language when a parent asked: the decision's email is in it. */
  language: 'en' | 'es';
}

/** A change as the lists show it: with its student's name and classroom (null if the student left the school). */
export interface DismissalChangeView extends DismissalChange {
  student: { id: number; firstName: string; lastName: string; classroomId: number | null } | null;
}

/** `GET /api/parent/ways-home`: each child's way home today, and what each of their schools offers. */
export interface ParentWaysHome {
  schools: Array<{
    schoolId: number;
    name: string;
    timeZone: string;
    /** The school's date now, and whether families may still change today (before the cutoff). */
    today: string;
    changeCutoff: string;
    pastCutoff: boolean;
    changeApproval: 'auto' | 'office';
    /** Its buses and active programs. */
    options: WayOptions;
  }>;
  children: Array<{ studentId: number; schoolId: number; today: PlanEntry }>;
}

/** The most days ahead a change may be made for (and a repeating change may run). */
export const CHANGE_HORIZON_DAYS = 366;
export const CHANGE_NOTE_MAX = 500;

const dayField = (name: string) =>
  z
    .string({ message: `${name} must be a date (YYYY-MM-DD)` })
    .max(10, `${name} must be a date (YYYY-MM-DD)`)
    .refine(isCalendarDate, `${name} must be a date (YYYY-MM-DD)`);

/** Plain text: no control characters but line breaks and tabs. */
const noteSchema = z
  .string({ message: 'Note must be text' })
  .max(CHANGE_NOTE_MAX, `Note must be at most ${CHANGE_NOTE_MAX} characters`)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  .refine((text) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text), 'Note must be plain text')
  .transform((text) => text.trim())
  .optional()
  .default('');

/** `POST /api/dismissal-changes`. */
export const dismissalChangeInputSchema = z.object({
  studentId: z.coerce
    .number({ message: 'studentId must be a student id' })
    .int('studentId must be a student id')
    .positive('studentId must be a student id')
    .max(2_147_483_647, 'studentId must be a student id'),
  date: dayField('date'),
  way: checkedWhole(dayWaySchema),
  note: noteSchema,
  /** The last day of a repeating change (with `weekdays`, or every school day up to it). */
  until: dayField('until').optional(),
  weekdays: z
    .array(z.enum(SCHOOL_DAYS, { message: 'Weekdays are mon, tue, wed, thu and fri' }), {
      message: 'Weekdays must be a list such as ["wed"]',
    })
    .min(1, 'Choose at least one weekday')
    .max(5, 'Weekdays are mon, tue, wed, thu and fri')
    .optional(),
  language: z.enum(['en', 'es'], { message: 'Language must be en or es' }).optional(),
});
export type DismissalChangeInput = z.output<typeof dismissalChangeInputSchema>;

/** `POST /api/dismissal-changes/{id}/deny`. */
export const denyChangeSchema = z.object({
  reason: z
    .string({ message: 'Reason must be text' })
    .max(300, 'Reason must be at most 300 characters')
    .optional()
    .transform((text) => (text ?? '').trim()),
});

/** `GET /api/dismissal-changes`: the changes of one day, or from a day on (a family's list). */
export const dismissalChangesQuerySchema = z
  .object({ date: dayField('date').optional(), from: dayField('from').optional() })
  .refine((query) => (query.date === undefined) !== (query.from === undefined), {
    message: 'Give date (one day) or from (that day on)',
    path: ['date'],
  });

/** The school's clock as a change request is checked against it. */
export interface ChangeClock {
  today: string;
  /** The school's wall clock has reached its cutoff. */
  pastCutoff: boolean;
  changeCutoff: string;
}

const invalid = (path: string, message: string) => new ValidationError(message, [{ path, message }]);

/** Whether a change falls on today (its one day, or one of its repeating days). */
const fallsOnToday = (change: Pick<ChangeOnDay, 'date' | 'until' | 'weekdays'>, today: string) =>
  change.until === null
    ? change.date === today
    : change.date <= today &&
      change.until >= today &&
      isSchoolDay(today) &&
      (change.weekdays === null || change.weekdays.includes(weekdayName(today)));

const weekdayName = (date: string) => weekdayOf(date) as SchoolDay;

/** The school days a repeating range falls on (at most the horizon). */
export const occurrencesOf = (change: Pick<ChangeOnDay, 'date' | 'until' | 'weekdays'>): string[] => {
  if (change.until === null) return [change.date];
  const days: string[] = [];
  for (let day = change.date; day <= change.until; day = addDays(day, 1)) {
    if (isSchoolDay(day) && (change.weekdays === null || change.weekdays.includes(weekdayName(day))))
      days.push(day);
  }
  return days;
};

/**
 * Checks a new change against the school's calendar and clock: a school day
 * (or a range that falls on one), today or later, within the horizon; a
 * family's change for today only before the cutoff (409 naming it). Staff
 * enter changes at any time of day. Answers the change's days.
 */
export const checkNewChange = (
  input: Pick<DismissalChangeInput, 'date' | 'until' | 'weekdays'>,
  clock: ChangeClock,
  by: 'parent' | 'staff',
): { until: string | null; weekdays: SchoolDay[] | null } => {
  const until = input.until ?? null;
  const weekdays = input.weekdays ? SCHOOL_DAYS.filter((day) => input.weekdays?.includes(day)) : null;
  if (weekdays !== null && until === null)
    throw invalid('until', 'A change on weekdays needs until (its last day)');
  if (input.date < clock.today) throw invalid('date', 'Choose today or a later day');
  if (daysBetween(clock.today, input.date) > CHANGE_HORIZON_DAYS)
    throw invalid('date', 'Choose a day within the next year');
  if (until === null && !isSchoolDay(input.date))
    throw invalid('date', 'Choose a school day (Monday to Friday)');
  if (until !== null) {
    if (until < input.date) throw invalid('until', 'until must be on or after date');
    if (daysBetween(input.date, until) > CHANGE_HORIZON_DAYS)
      throw invalid('until', 'A repeating change may run for a year at most');
    if (occurrencesOf({ date: input.date, until, weekdays }).length === 0)
      throw invalid('weekdays', 'The change falls on no school day');
  }
  if (by === 'parent' && clock.pastCutoff && fallsOnToday({ date: input.date, until, weekdays }, clock.today))
    throw new ConflictError(cutoffMessage(clock.changeCutoff));
  return { until, weekdays };
};

/**
 * Whether the family who asked may still cancel: not once it was decided
 * against or cancelled, not once it is over, and not for today after the
 * cutoff. Staff may cancel any change still pending or approved, at any time.
 */
export const checkCancel = (change: DismissalChange, clock: ChangeClock, by: 'parent' | 'staff'): void => {
  if (change.status === 'cancelled') throw new ConflictError('This change was already cancelled');
  if (change.status === 'denied')
    throw new ConflictError('This change was denied; there is nothing to cancel');
  const last = change.until ?? change.date;
  if (last < clock.today) throw new ConflictError('This change is over');
  if (by === 'parent' && clock.pastCutoff && fallsOnToday(change, clock.today))
    throw new ConflictError(cutoffMessage(clock.changeCutoff));
};

/** The office decides a pending change only; an approval must still have a day to apply to. */
export const checkDecision = (change: DismissalChange, decision: 'approve' | 'deny', today: string): void => {
  if (change.status !== 'pending') throw new ConflictError(`This change was already ${change.status}`);
  if (decision === 'approve' && (change.until ?? change.date) < today)
    throw new ConflictError("This change's days have passed");
};

/**
 * A cancelled change's first day without it: today (a change that had
 * started keeps its days before), or its first day when it had not started.
 */
export const cancelledFromOf = (change: Pick<ChangeOnDay, 'date'>, today: string) =>
  change.date > today ? change.date : today;

// ---------------------------------------------------------------------------
// The record of ways home: every plan edit, change, decision and cancellation

export const WAY_EVENT_KINDS = [
  'plan_set',
  'change_requested',
  'change_approved',
  'change_denied',
  'change_cancelled',
  // Issue 55: the student's data erased (the one event left of their record of ways home).
  'student_erased',
  // Issue 52: a program's staff checked the child in (or took it back).
  'program_checked_in',
  'program_check_in_undone',
] as const;
export type WayEventKind = (typeof WAY_EVENT_KINDS)[number];

/** A change as the record keeps it, before and after. */
export type ChangeSnapshot = Pick<
  DismissalChange,
  'id' | 'date' | 'until' | 'weekdays' | 'way' | 'status' | 'note' | 'reason'
>;

export const snapshotOf = (change: DismissalChange): ChangeSnapshot => ({
  id: change.id,
  date: change.date,
  until: change.until,
  weekdays: change.weekdays,
  way: change.way,
  status: change.status,
  note: change.note,
  reason: change.reason,
});

/**
 * One event of a student's way-home record (append-only, in the same
 * transaction as its change; kept for the school's retention): who, when,
 * and the plan or change before and after.
 */
export interface WayEvent {
  id: string;
  schoolId: number;
  studentId: number;
  at: string;
  actor: DismissalActor;
  kind: WayEventKind;
  /** `plan_set`: the weekly plan before (null: none, a car rider) and after. */
  plan?: { before: WeeklyPlan | null; after: WeeklyPlan };
  /** Change events: the change before (null when new) and after. */
  change?: { before: ChangeSnapshot | null; after: ChangeSnapshot };
  /** Check-in events: the program (its name then) and the school day. */
  checkIn?: { programId: number; programName: string; date: string };
}

/** A change's days as a family or the office reads them. */
export const changeDaysText = (change: Pick<ChangeOnDay, 'date' | 'until' | 'weekdays'>): string => {
  if (change.until === null) return change.date;
  const days = change.weekdays ? `${change.weekdays.join(', ')} ` : 'school days ';
  return `${days}${change.date} to ${change.until}`;
};
