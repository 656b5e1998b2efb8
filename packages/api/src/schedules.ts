/**
 * Scheduled handlers: `functions/src/scheduled/{name}.ts`. In AWS an
 * EventBridge rule invokes each every `everyMinutes`; on a laptop a timer does.
 */
export interface ScheduleDefinition {
  name: string;
  everyMinutes: number;
  /** Once a day at this hour (UTC) instead, and not at start on a laptop. */
  dailyAtHourUtc?: number;
}

export const schedules: readonly ScheduleDefinition[] = [
  /** Ends every pickup session whose end time has passed. */
  { name: 'end-sessions', everyMinutes: 1 },
  /** Counts the emergency alerts nobody acknowledged for 2 minutes (the stack's alarm wakes someone). */
  { name: 'alert-watch', everyMinutes: 1 },
  /** Re-imports every district connected to Clever, at night in the US (08:00 UTC is 3–4 am Eastern). */
  { name: 'clever-sync', everyMinutes: 1440, dailyAtHourUtc: 8 },
];
