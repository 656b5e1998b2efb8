/** Runs the scheduled handlers on timers, as the EventBridge rules do in AWS. */
import { randomUUID } from 'node:crypto';
import { schedules as allSchedules, type ScheduleDefinition } from '@curbside/api';
import type { ScheduledEvent } from 'aws-lambda';
import { type Invoke, invoke as inProcessInvoke } from './lambda';
import { logError } from './log';

/** The event an EventBridge schedule rule delivers. */
export const scheduledEvent = (name: string, now = new Date()): ScheduledEvent => ({
  version: '0',
  id: randomUUID(),
  'detail-type': 'Scheduled Event',
  source: 'aws.events',
  account: '000000000000',
  time: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
  region: process.env.AWS_REGION ?? 'us-east-1',
  resources: [`arn:aws:events:us-east-1:000000000000:rule/curbside-${name}`],
  detail: {},
});

/**
 * Invokes every schedule's handler once at start and then every
 * `everyMinutes` (a daily one first at its hour). A run that fails is logged and the next one happens anyway;
 * a run still going when the next is due is not doubled. Answers a stop
 * function that clears the timers and waits for running invocations.
 */
export const startSchedules = (
  schedules: readonly ScheduleDefinition[] = allSchedules,
  invoke: Invoke = inProcessInvoke,
) => {
  const running = new Map<string, Promise<void>>();
  const fire = (schedule: ScheduleDefinition) => {
    if (running.has(schedule.name)) return;
    const task = invoke(`scheduled/${schedule.name}`, scheduledEvent(schedule.name))
      .then(() => undefined)
      .catch((error) => logError(`schedule ${schedule.name} failed`, error))
      .finally(() => running.delete(schedule.name));
    running.set(schedule.name, task);
  };
  const timers: NodeJS.Timeout[] = [];
  const every = (schedule: ScheduleDefinition) => {
    const timer = setInterval(() => fire(schedule), schedule.everyMinutes * 60_000);
    timer.unref();
    timers.push(timer);
  };
  for (const schedule of schedules) {
    if (schedule.dailyAtHourUtc === undefined) {
      every(schedule);
      fire(schedule);
      continue;
    }
    // A daily one waits for its hour, then runs every day.
    const next = new Date();
    next.setUTCHours(schedule.dailyAtHourUtc, 0, 0, 0);
    if (next.getTime() <= Date.now()) next.setUTCDate(next.getUTCDate() + 1);
    const first = setTimeout(() => {
      fire(schedule);
      every(schedule);
    }, next.getTime() - Date.now());
    first.unref();
    timers.push(first);
  }
  return async () => {
    for (const timer of timers) clearInterval(timer);
    await Promise.allSettled([...running.values()]);
  };
};
