import { formatClockTime, formatDuration, type ReportActor } from '@curbside/domain';

/** Who did it, as a report shows it: `username (Role)`, or the driver link / the schedule. */
export const actorText = (actor: ReportActor | null): string => {
  if (actor === null) return '—';
  if ('kind' in actor) return actor.kind === 'driver link' ? 'Driver link' : 'Schedule';
  return actor.username;
};

export const timeText = (moment: string | null) => (moment === null ? '—' : formatClockTime(moment));
export const waitText = (seconds: number | null) => (seconds === null ? '—' : formatDuration(seconds));
export const dayText = (moment: string) =>
  new Date(moment).toLocaleDateString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
  });

export const OUTCOME_LABEL = { picked_up: 'Picked up', left: 'Left', removed: 'Removed' } as const;
