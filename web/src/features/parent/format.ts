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

/** A clock time: US English 12-hour in English, the language's own clock otherwise. */
export const clockText = (time: string, language: string) =>
  language === 'en'
    ? formatClockTime(time)
    : new Intl.DateTimeFormat(language, { hour: 'numeric', minute: '2-digit' }).format(new Date(time));
