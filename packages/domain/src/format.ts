/** Time, count and speed formats of the specification's constants table (§9). */

const pad2 = (value: number) => String(value).padStart(2, '0');

/**
 * A duration in seconds: under one hour `mm:ss` (both padded to two digits),
 * from one hour `h:mm:ss`. Negative durations count as 0.
 */
export const formatDuration = (totalSeconds: number): string => {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h > 0 ? `${h}:${pad2(m)}:${pad2(s)}` : `${pad2(m)}:${pad2(s)}`;
};

/** Clock time in US English, 12-hour, hour and two-digit minute: `3:05 PM`. */
export const formatClockTime = (moment: string | number | Date): string =>
  new Date(moment).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });

/** Whole seconds elapsed since a moment. */
export const elapsedSeconds = (since: string | number | Date, now: number = Date.now()): number =>
  Math.floor((now - new Date(since).getTime()) / 1000);

/** How long ago a moment was, as an alert banner says it: `just now`, `45 s ago`, `3 min ago`, `1 h 5 min ago`. */
export const formatAgo = (since: string | number | Date, now: number = Date.now()): string => {
  const seconds = Math.max(0, elapsedSeconds(since, now));
  if (seconds < 10) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min ago`;
};

/** Whole seconds until a moment, never below 0. */
export const countdownSeconds = (until: string | number | Date, now: number = Date.now()): number =>
  Math.max(0, Math.ceil((new Date(until).getTime() - now) / 1000));

/** Parent estimated wait in minutes: under 60 `N min`, else `Xh Ym`. */
export const formatEstimatedWait = (minutes: number): string => {
  const total = Math.max(0, Math.round(minutes));
  return total < 60 ? `${total} min` : `${Math.floor(total / 60)}h ${total % 60}m`;
};

/** Exactly 1 is singular, every other count plural: `1 bus`, `0 buses`. */
export const plural = (count: number, singular: string, pluralForm = `${singular}s`): string =>
  `${count} ${count === 1 ? singular : pluralForm}`;

/** 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st. */
export const ordinal = (n: number): string => {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  const suffix = ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
  return `${n}${n % 10 > 3 ? 'th' : suffix}`;
};

/** Metres per second to miles per hour, one decimal: 10 m/s → `22.4`. */
export const MPS_TO_MPH = 2.237;
export const formatSpeedMph = (metresPerSecond: number): string => (metresPerSecond * MPS_TO_MPH).toFixed(1);

/** A student as first name plus last initial: `Ava M.`. */
export const shortName = (student: { firstName: string; lastName: string }): string =>
  student.lastName ? `${student.firstName} ${student.lastName.charAt(0)}.` : student.firstName;
