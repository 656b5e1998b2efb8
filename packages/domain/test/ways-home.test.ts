import { describe, expect, it } from 'vitest';
import {
  busDaysOf,
  CAR_EVERY_DAY,
  type ChangeOnDay,
  ConflictError,
  cancelledFromOf,
  changeAppliesOn,
  checkCancel,
  checkNewChange,
  countByMode,
  type DismissalChange,
  dismissalChangeInputSchema,
  dismissalPlanBodySchema,
  occurrencesOf,
  parseDismissalCell,
  ValidationError,
  type WayOptions,
  type WeeklyPlan,
  wayHomeOn,
  weeklyPlanText,
} from '../src';

/** Every way home (issue 51): the day's rule, the calendar and cutoff checks, the CSV column. */
const bus = { mode: 'bus', vehicleId: 7 } as const;
const week: WeeklyPlan = { ...CAR_EVERY_DAY, mon: bus, tue: bus, fri: { mode: 'walker' } };
const change = (fields: Partial<ChangeOnDay>): ChangeOnDay => ({
  id: 1,
  date: '2026-11-25',
  until: null,
  weekdays: null,
  way: { mode: 'walker' },
  status: 'approved',
  approvedAt: '2026-11-20T10:00:00.000Z',
  cancelledFrom: null,
  ...fields,
});

describe("a day's way home", () => {
  it('is the weekly plan (a car rider without one; car on a weekend)', () => {
    expect(wayHomeOn(3, '2026-11-23', week, [])).toEqual({ studentId: 3, way: bus, source: 'default' });
    expect(wayHomeOn(3, '2026-11-27', week, []).way).toEqual({ mode: 'walker' });
    expect(wayHomeOn(3, '2026-11-25', null, []).way).toEqual({ mode: 'car' });
    expect(wayHomeOn(3, '2026-11-28', week, []).way).toEqual({ mode: 'car' });
  });

  it("is overridden by the day's approved change; pending, denied and cancelled ones do not count", () => {
    const approved = change({ id: 4 });
    expect(wayHomeOn(3, '2026-11-25', week, [approved])).toEqual({
      studentId: 3,
      way: { mode: 'walker' },
      source: 'change',
      changeId: 4,
      // Issue 52: the way the week gave that day and the change's note (the teacher's badge).
      usual: { mode: 'car' },
      note: '',
    });
    for (const status of ['pending', 'denied'] as const) {
      expect(wayHomeOn(3, '2026-11-25', week, [change({ status, approvedAt: null })]).source).toBe('default');
    }
    expect(wayHomeOn(3, '2026-11-26', week, [approved]).source).toBe('default');
  });

  it('of several approved changes, takes the one approved last', () => {
    const earlier = change({ id: 1, way: { mode: 'absent' }, approvedAt: '2026-11-20T10:00:00.000Z' });
    const later = change({ id: 2, way: bus, approvedAt: '2026-11-21T10:00:00.000Z' });
    expect(wayHomeOn(3, '2026-11-25', null, [later, earlier]).changeId).toBe(2);
  });

  it('keeps a cancelled repeating change on the days before it was cancelled, not after', () => {
    const series = change({
      date: '2026-11-23',
      until: '2026-12-04',
      status: 'cancelled',
      cancelledFrom: '2026-11-30',
    });
    expect(changeAppliesOn(series, '2026-11-24')).toBe(true);
    expect(changeAppliesOn(series, '2026-11-30')).toBe(false);
    expect(changeAppliesOn({ ...series, approvedAt: null }, '2026-11-24')).toBe(false);
    expect(cancelledFromOf(series, '2026-11-30')).toBe('2026-11-30');
    expect(cancelledFromOf({ date: '2026-12-02' }, '2026-11-30')).toBe('2026-12-02');
  });

  it('falls on a repeating change’s weekdays, school days only', () => {
    expect(occurrencesOf({ date: '2026-11-23', until: '2026-12-04', weekdays: ['wed'] })).toEqual([
      '2026-11-25',
      '2026-12-02',
    ]);
    expect(occurrencesOf({ date: '2026-11-27', until: '2026-11-30', weekdays: null })).toEqual([
      '2026-11-27',
      '2026-11-30',
    ]);
  });

  it('counts a day by way home', () => {
    expect(
      countByMode([{ way: bus }, { way: { mode: 'car' } }, { way: { mode: 'absent' } }, { way: bus }]),
    ).toEqual({ car: 1, bus: 2, walker: 0, program: 0, absent: 1 });
  });
});

describe('a new change', () => {
  const clock = { today: '2026-11-25', pastCutoff: false, changeCutoff: '14:00' };

  it('is for a school day, today or later, within a year', () => {
    expect(checkNewChange({ date: '2026-11-25' }, clock, 'parent')).toEqual({ until: null, weekdays: null });
    expect(() => checkNewChange({ date: '2026-11-24' }, clock, 'staff')).toThrow(
      'Choose today or a later day',
    );
    expect(() => checkNewChange({ date: '2026-11-28' }, clock, 'staff')).toThrow(
      'Choose a school day (Monday to Friday)',
    );
    expect(() => checkNewChange({ date: '2027-12-01' }, clock, 'staff')).toThrow(ValidationError);
    expect(() => checkNewChange({ date: '2026-11-25', weekdays: ['wed'] }, clock, 'staff')).toThrow(
      'A change on weekdays needs until (its last day)',
    );
    expect(() =>
      checkNewChange({ date: '2026-11-28', until: '2026-11-29', weekdays: ['mon'] }, clock, 'staff'),
    ).toThrow('The change falls on no school day');
  });

  it('for today after the cutoff is refused to a family (409 naming the cutoff), not to the office', () => {
    const late = { ...clock, pastCutoff: true, changeCutoff: '13:15' };
    expect(() => checkNewChange({ date: '2026-11-25' }, late, 'parent')).toThrow(
      new ConflictError('Changes for today close at 1:15 PM. Please call the school office.'),
    );
    expect(() => checkNewChange({ date: '2026-11-25' }, late, 'staff')).not.toThrow();
    expect(() => checkNewChange({ date: '2026-11-26' }, late, 'parent')).not.toThrow();
    // A repeating change that falls today is as late; one that does not falls on later days only.
    expect(() =>
      checkNewChange(
        { date: '2026-11-23', until: '2026-12-04', weekdays: ['wed'] },
        { ...late, today: '2026-11-23' },
        'parent',
      ),
    ).not.toThrow();
  });

  it('is cancelled by the family before the cutoff only, and never once it is over', () => {
    const made = { ...change({}), status: 'approved' } as DismissalChange;
    expect(() => checkCancel(made, clock, 'parent')).not.toThrow();
    expect(() => checkCancel(made, { ...clock, pastCutoff: true }, 'parent')).toThrow(ConflictError);
    expect(() => checkCancel(made, { ...clock, pastCutoff: true }, 'staff')).not.toThrow();
    expect(() => checkCancel(made, { ...clock, today: '2026-11-26' }, 'staff')).toThrow(
      'This change is over',
    );
    expect(() => checkCancel({ ...made, status: 'denied' }, clock, 'staff')).toThrow(ConflictError);
  });

  it('takes a note of plain text, at most 500 characters', () => {
    const base = { studentId: 1, date: '2026-11-25', way: { mode: 'walker' } };
    expect(dismissalChangeInputSchema.parse({ ...base, note: '  Grandma\nat 3  ' }).note).toBe(
      'Grandma\nat 3',
    );
    expect(dismissalChangeInputSchema.safeParse({ ...base, note: 'x'.repeat(501) }).success).toBe(false);
    expect(dismissalChangeInputSchema.safeParse({ ...base, note: 'bell\u0007' }).success).toBe(false);
    const bad = dismissalChangeInputSchema.safeParse({ ...base, way: { mode: 'bus' } });
    expect(bad.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['way']);
    expect(
      dismissalPlanBodySchema.safeParse({ plan: { ...CAR_EVERY_DAY, wed: { mode: 'taxi' } } }).error
        ?.issues[0]?.message,
    ).toMatch(/^wed: /);
  });
});

describe('the students CSV dismissal column', () => {
  const options = {
    buses: [{ id: 7, number: '3' }],
    programs: [
      { id: 9, name: 'Kids Club', active: true },
      { id: 10, name: 'Old Club', active: false },
    ],
  };

  it('reads one way for the week, or five for Monday to Friday', () => {
    expect(parseDismissalCell('walker', options)).toEqual({
      plan: {
        mon: { mode: 'walker' },
        tue: { mode: 'walker' },
        wed: { mode: 'walker' },
        thu: { mode: 'walker' },
        fri: { mode: 'walker' },
      },
    });
    expect(parseDismissalCell('bus:B3 | car | program:kids club | car | Walker', options)).toEqual({
      plan: {
        mon: { mode: 'bus', vehicleId: 7 },
        tue: { mode: 'car' },
        wed: { mode: 'program', programId: 9 },
        thu: { mode: 'car' },
        fri: { mode: 'walker' },
      },
    });
  });

  it('names what is wrong', () => {
    expect(parseDismissalCell('bus:4', options)).toEqual({
      error: 'No bus 4 is registered. Add it in the Vehicles tab first.',
    });
    expect(parseDismissalCell('program:Old Club', options)).toEqual({
      error: 'No program named Old Club. Add it under Programs first.',
    });
    expect(parseDismissalCell('car|walker', options)).toEqual({
      error: 'Dismissal must be one way home, or five separated by | for Monday to Friday',
    });
    expect(parseDismissalCell('walker:fast', options)).toEqual({ error: 'Unknown way home "walker:fast"' });
  });
});

describe('a week in a line', () => {
  const options: WayOptions = {
    buses: [{ id: 7, number: '3' }],
    programs: [{ id: 9, name: 'Kids Club', kind: 'after_care', location: null, active: true }],
  };
  it('names the usual way and the days that differ', () => {
    expect(weeklyPlanText(null, options)).toBe('Car rider');
    expect(weeklyPlanText(week, options)).toBe('Bus B3; Wed: Car rider; Thu: Car rider; Fri: Walker');
    expect(weeklyPlanText({ ...week, wed: bus, thu: bus }, options)).toBe('Bus B3; Fri: Walker');
  });
});

describe("the buses a plan names (a bus's riders item, issue 54)", () => {
  it('are each bus with its days, none without a plan or a bus', () => {
    const two: WeeklyPlan = { ...week, thu: { mode: 'bus', vehicleId: 9 } };
    expect(busDaysOf(two)).toEqual(
      new Map([
        [7, ['mon', 'tue']],
        [9, ['thu']],
      ]),
    );
    expect(busDaysOf(CAR_EVERY_DAY)).toEqual(new Map());
    expect(busDaysOf(undefined)).toEqual(new Map());
  });
});
