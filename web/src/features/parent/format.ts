import { formatClockTime, formatEstimatedWait } from '@curbside/domain';
import type { Translate } from '../../lib/i18n';

/** The estimated wait: the specification's `N min` / `Xh Ym` in English, the same split in Spanish. */
export const waitText = (minutes: number, language: string, t: Translate) => {
  if (language === 'en') return formatEstimatedWait(minutes);
  const total = Math.max(0, Math.round(minutes));
  return total < 60
    ? t('wait.minutes', { minutes: total })
    : t('wait.hours', { hours: Math.floor(total / 60), minutes: total % 60 });
};

const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * One `Intl.DateTimeFormat` per language and options, made once (issue 57: making one costs about
 * a millisecond, and the dashboard wrote each of the next ten school days in every child's form
 * with a new one, a phone's main thread held up at its first paint).
 */
export const dateFormat = (language: string, options: Intl.DateTimeFormatOptions) => {
  const key = `${language} ${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(language, options);
    formats.set(key, format);
  }
  return format;
};

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A calendar day (`2026-11-25`) as the screen's language writes it: `Wed, Nov 25` in English,
 * `mié, 25 nov` in Spanish. English is written here, as `Intl.DateTimeFormat('en')` writes it,
 * without making one: the change form's day list is drawn in the dashboard's first render, and a
 * phone at 4× CPU spent 0.02–0.16 s making its formatter there (issue 57, h57d).
 */
export const dayText = (day: string, language: string) => {
  const date = new Date(`${day}T00:00:00Z`);
  return language === 'en'
    ? `${WEEKDAYS[date.getUTCDay()]}, ${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}`
    : dateFormat(language, { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
        date,
      );
};

/** A clock time: US English 12-hour in English, the language's own clock otherwise. */
export const clockText = (time: string, language: string) =>
  language === 'en'
    ? formatClockTime(time)
    : dateFormat(language, { hour: 'numeric', minute: '2-digit' }).format(new Date(time));
