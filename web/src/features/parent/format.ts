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

/** A clock time: US English 12-hour in English, the language's own clock otherwise. */
export const clockText = (time: string, language: string) =>
  language === 'en'
    ? formatClockTime(time)
    : dateFormat(language, { hour: 'numeric', minute: '2-digit' }).format(new Date(time));
