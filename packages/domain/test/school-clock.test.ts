import { describe, expect, it } from 'vitest';
import {
  addDays,
  canonicalTimeZone,
  clockTimeText,
  DEFAULT_TIME_ZONE,
  dateIn,
  daysBetween,
  instantIn,
  isCalendarDate,
  isSchoolDay,
  newSchoolTimeZone,
  schoolClockOf,
  schoolNow,
  TIME_ZONE_BEFORE_SETTING,
  timeIn,
  weekdayOf,
} from '../src';

describe("the school's clock", () => {
  it('takes IANA names only, spelled as Intl spells them', () => {
    expect(canonicalTimeZone('America/Chicago')).toBe('America/Chicago');
    expect(canonicalTimeZone('america/chicago')).toBe('America/Chicago');
    expect(canonicalTimeZone('Mars/Olympus_Mons')).toBeNull();
    expect(canonicalTimeZone('+05:00')).toBeNull();
    expect(canonicalTimeZone('')).toBeNull();
  });

  it("reads today's date and time in the school's zone, not the machine's", () => {
    // 04:30 UTC on March 11 2026: still March 10 in Chicago and Los Angeles, March 11 in Tokyo.
    const at = Date.parse('2026-03-11T04:30:00Z');
    expect(dateIn('America/Chicago', at)).toBe('2026-03-10');
    expect(timeIn('America/Chicago', at)).toBe('23:30');
    expect(dateIn('America/Los_Angeles', at)).toBe('2026-03-10');
    expect(dateIn('Asia/Tokyo', at)).toBe('2026-03-11');
    expect(timeIn('Asia/Tokyo', at)).toBe('13:30');
  });

  it('finds the instant of a wall-clock time, across daylight saving time', () => {
    // Chicago: CST (UTC-6) until March 8 2026, CDT (UTC-5) after.
    expect(new Date(instantIn('America/Chicago', '2026-03-02', '14:00')).toISOString()).toBe(
      '2026-03-02T20:00:00.000Z',
    );
    expect(new Date(instantIn('America/Chicago', '2026-03-09', '14:00')).toISOString()).toBe(
      '2026-03-09T19:00:00.000Z',
    );
    expect(new Date(instantIn('America/Chicago', '2026-03-08')).toISOString()).toBe(
      '2026-03-08T06:00:00.000Z',
    );
    expect(new Date(instantIn('Asia/Kolkata', '2026-01-01')).toISOString()).toBe('2025-12-31T18:30:00.000Z');
  });

  it("says whether the school's wall clock has reached its cutoff", () => {
    const before = Date.parse('2026-03-09T18:59:00Z'); // 1:59 PM in Chicago
    const at = Date.parse('2026-03-09T19:00:00Z'); // 2:00 PM
    expect(schoolNow('America/Chicago', '14:00', before)).toEqual({
      today: '2026-03-09',
      time: '13:59',
      pastCutoff: false,
    });
    expect(schoolNow('America/Chicago', '14:00', at).pastCutoff).toBe(true);
    // The same instant in Tokyo is 4:00 AM the next day: before its cutoff.
    expect(schoolNow('Asia/Tokyo', '14:00', at)).toMatchObject({ today: '2026-03-10', pastCutoff: false });
  });

  it('shows a cutoff as the specification shows clock times', () => {
    expect(clockTimeText('14:00')).toBe('2:00 PM');
    expect(clockTimeText('00:05')).toBe('12:05 AM');
    expect(clockTimeText('12:30')).toBe('12:30 PM');
    expect(clockTimeText('09:15')).toBe('9:15 AM');
  });

  it('knows weekdays, school days and calendar arithmetic', () => {
    expect(weekdayOf('2026-03-04')).toBe('wed');
    expect(isSchoolDay('2026-03-06')).toBe(true);
    expect(isSchoolDay('2026-03-07')).toBe(false);
    expect(addDays('2026-02-27', 2)).toBe('2026-03-01');
    expect(daysBetween('2026-02-27', '2026-03-01')).toBe(2);
    expect(isCalendarDate('2026-02-29')).toBe(false);
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2026-13-01')).toBe(false);
  });

  it('gives a school its defaults, and a new school its district zone', () => {
    expect(schoolClockOf({})).toEqual({
      timeZone: TIME_ZONE_BEFORE_SETTING,
      changeCutoff: '14:00',
      changeApproval: 'auto',
    });
    expect(newSchoolTimeZone({ timeZone: 'America/Denver' })).toBe('America/Denver');
    expect(newSchoolTimeZone({})).toBe(DEFAULT_TIME_ZONE);
    expect(newSchoolTimeZone(undefined)).toBe('America/New_York');
  });
});
