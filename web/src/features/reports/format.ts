import { formatClockTime, formatDuration, type ReportActor, type ReportOutcome } from '@curbside/domain';
import { actorDisplayName } from '@curbside/domain/report';

/** Who did it, as a report shows it: their name, or the driver link / the schedule. */
export const actorText = (actor: ReportActor | null): string =>
  actor === null ? '—' : actorDisplayName(actor);

export const timeText = (moment: string | null) => (moment === null ? '—' : formatClockTime(moment));
export const waitText = (seconds: number | null) => (seconds === null ? '—' : formatDuration(seconds));
export const dayText = (moment: string) =>
  new Date(moment).toLocaleDateString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
  });

export const OUTCOME_LABEL: Readonly<Record<ReportOutcome, string>> = {
  picked_up: 'Picked up',
  left: 'Left',
  removed: 'Removed',
  left_in_queue_at_end: 'Left in queue at end',
};
/** A visit still in the queue of a running session. */
export const IN_QUEUE = 'In queue';
