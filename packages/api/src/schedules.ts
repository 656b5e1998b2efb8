/**
 * Scheduled handlers: `functions/src/scheduled/{name}.ts`. In AWS an
 * EventBridge rule invokes each every `everyMinutes`; on a laptop a timer does.
 */
export interface ScheduleDefinition {
  name: string;
  everyMinutes: number;
}

export const schedules: readonly ScheduleDefinition[] = [
  /** Ends every pickup session whose end time has passed. */
  { name: 'end-sessions', everyMinutes: 1 },
];
