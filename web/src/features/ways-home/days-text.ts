import type { ChangeOnDay } from '@curbside/domain';

const DAY = new Intl.DateTimeFormat('en-US', {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});
const WEEKDAY: Record<string, string> = { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri' };

/** A day as the staff screens write it: `Mon, Nov 30`. */
export const dayLabel = (date: string) => DAY.format(new Date(`${date}T00:00:00Z`));

/** A change's days: `Today`, `Mon, Nov 30`, `Wed, Fri from Mon, Nov 23 to Fri, Dec 11`. */
export const changeDaysLabel = (
  change: Pick<ChangeOnDay, 'date' | 'until' | 'weekdays'>,
  today: string | null,
) => {
  if (change.until === null) return change.date === today ? 'Today' : dayLabel(change.date);
  const days = change.weekdays ? change.weekdays.map((day) => WEEKDAY[day]).join(', ') : 'School days';
  return `${days} from ${dayLabel(change.date)} to ${dayLabel(change.until)}`;
};
