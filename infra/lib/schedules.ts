import type { FunctionPlan } from '@curbside/api';
import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { StackPart } from './part';

export interface SchedulesProps {
  /** The route table's function plan: its scheduled entry carries the schedules. */
  plans: readonly FunctionPlan[];
  /** The function of a plan id. */
  functionOf: (planId: string) => lambda.Function;
}

/** The EventBridge schedules: one rule each, all invoking the scheduled function, which dispatches by name. */
export class Schedules extends StackPart {
  /** The rule of each schedule, by name (`end-sessions`). */
  readonly rules: ReadonlyMap<string, events.Rule>;

  constructor(scope: Construct, id: string, props: SchedulesProps) {
    super(scope, id);
    const rules = new Map<string, events.Rule>();
    for (const plan of props.plans) {
      if (plan.kind !== 'scheduled') continue;
      for (const schedule of plan.schedules) {
        const rule = new events.Rule(this, `Schedule-${schedule.name}`, {
          description:
            schedule.dailyAtHourUtc === undefined
              ? `Runs ${schedule.name} every ${schedule.everyMinutes} minute(s)`
              : `Runs ${schedule.name} daily at ${schedule.dailyAtHourUtc}:00 UTC`,
          schedule:
            schedule.dailyAtHourUtc === undefined
              ? events.Schedule.rate(Duration.minutes(schedule.everyMinutes))
              : events.Schedule.cron({ minute: '0', hour: String(schedule.dailyAtHourUtc) }),
          targets: [
            new targets.LambdaFunction(props.functionOf(plan.id), {
              // A missed tick is made up by the next one.
              retryAttempts: 0,
              event: events.RuleTargetInput.fromObject({
                'detail-type': 'Scheduled Event',
                source: 'aws.events',
                time: events.EventField.time,
                detail: { schedule: schedule.name },
              }),
            }),
          ],
        });
        rules.set(schedule.name, rule);
      }
    }
    this.rules = rules;
  }

  /** The rule of a schedule; throws for a schedule the plan does not have. */
  rule(name: string): events.Rule {
    const found = this.rules.get(name);
    if (!found) throw new Error(`No ${name} schedule`);
    return found;
  }
}
