/**
 * The school's clock (issue 51, docs/adr/0021-every-way-home.md): every
 * "today", cutoff and report day of the product is a date in the school's own
 * IANA time zone (a school setting), never the server's and never a constant.
 * Dates are `YYYY-MM-DD` strings of that calendar; times of day `HH:MM`
 * (24-hour) on its wall clock.
 */

/** A new school's zone when its district names none. */
export const DEFAULT_TIME_ZONE = 'America/New_York';
/**
 * The zone of a school saved before schools had one: the product ran every
 * school's calendar in `America/Chicago` until then, so such a school keeps
 * its days until its admin sets its own.
 */
export const TIME_ZONE_BEFORE_SETTING = 'America/Chicago';

/** The IANA name as `Intl` spells it (`america/chicago` → `America/Chicago`), or null when it names no zone. */
export const canonicalTimeZone = (name: string): string | null => {
  // Names only: "+05:00" style offsets and empty strings are not zones of a place.
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
};

export const isTimeZone = (name: string): boolean => canonicalTimeZone(name) !== null;

const formatters = new Map<string, Intl.DateTimeFormat>();
/** One formatter per zone (making one costs far more than using it). */
const partsFormatter = (timeZone: string) => {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    if (formatters.size > 200) formatters.clear();
    formatters.set(timeZone, format);
  }
  return format;
};

/** The wall clock of a zone at an instant: date `YYYY-MM-DD` and time `HH:MM`. */
export const wallClock = (timeZone: string, now: number | Date = Date.now()) => {
  const parts = partsFormatter(timeZone).formatToParts(now);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '00';
  return {
    date: `${part('year')}-${part('month')}-${part('day')}`,
    time: `${part('hour')}:${part('minute')}`,
    seconds: Number(part('second')),
  };
};

/** Today's date as `YYYY-MM-DD` in a time zone. */
export const dateIn = (timeZone: string, now: number | Date = Date.now()): string =>
  wallClock(timeZone, now).date;

/** The time of day `HH:MM` in a time zone. */
export const timeIn = (timeZone: string, now: number | Date = Date.now()): string =>
  wallClock(timeZone, now).time;

/** How far the zone's wall clock is ahead of UTC at an instant, in ms. */
const offsetAt = (timeZone: string, at: number) => {
  const { date, time, seconds } = wallClock(timeZone, at);
  const asUtc = Date.parse(`${date}T${time}:${String(seconds).padStart(2, '0')}Z`);
  return asUtc - Math.floor(at / 1000) * 1000;
};

/**
 * The instant (epoch ms) at which the zone's wall clock reads `date` `time`.
 * A time skipped by a daylight-saving change reads as the same wall time
 * after it; a repeated one as its first occurrence.
 */
export const instantIn = (timeZone: string, date: string, time = '00:00'): number => {
  const naive = Date.parse(`${date}T${time}:00Z`);
  const first = naive - offsetAt(timeZone, naive);
  return naive - offsetAt(timeZone, first);
};

/** School days, Monday to Friday, as the weekly plan names them. */
export const SCHOOL_DAYS = ['mon', 'tue', 'wed', 'thu', 'fri'] as const;
export type SchoolDay = (typeof SCHOOL_DAYS)[number];
const WEEK = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export type Weekday = (typeof WEEK)[number];

/** The weekday of a calendar date (`2026-03-04` → `wed`). */
export const weekdayOf = (date: string): Weekday =>
  WEEK[new Date(`${date}T00:00:00Z`).getUTCDay()] as Weekday;

/** Whether a calendar date is a school day (Monday to Friday). */
export const isSchoolDay = (date: string): boolean =>
  (SCHOOL_DAYS as readonly string[]).includes(weekdayOf(date));

/** A calendar date `days` later (or earlier, when negative). */
export const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** Whole days from one calendar date to another (positive when `to` is later). */
export const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** A calendar date that exists (`2026-02-30` does not). */
export const isCalendarDate = (value: string): boolean =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) &&
  !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
  new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;

/** A wall-clock time `HH:MM` (24-hour) as the specification shows clock times: `14:00` → `2:00 PM`. */
export const clockTimeText = (time: string): string => {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  const suffix = hours < 12 ? 'AM' : 'PM';
  const hour = hours % 12 === 0 ? 12 : hours % 12;
  return `${hour}:${String(minutes).padStart(2, '0')} ${suffix}`;
};

/** The school's "today" and whether its wall clock has reached `cutoff` (`HH:MM`). */
export const schoolNow = (timeZone: string, cutoff: string, now: number | Date = Date.now()) => {
  const clock = wallClock(timeZone, now);
  return { today: clock.date, time: clock.time, pastCutoff: clock.time >= cutoff };
};
