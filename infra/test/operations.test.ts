import { functionPlan, IMPORT_JOBS, MAIL_SENDER, schedules } from '@curbside/api';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { inspect, only, synthesizeOnce } from './synth';

/** Alarms, their topic and the dashboard (`lib/operations.ts`), and cdk-nag's checks of the whole stack. */
const curbside = synthesizeOnce();
const { logicalId, ofType } = inspect(curbside);

describe('operations: alarms, who they reach, the dashboard (issue 55)', () => {
  const alarms = () => ofType('AWS::CloudWatch::Alarm').map(([, r]) => r.Properties);
  const topicId = () => only(ofType('AWS::SNS::Topic'))[0];
  const alarmNamed = (description: RegExp) => {
    const found = alarms().filter((a) => description.test(a.AlarmDescription));
    expect(found, String(description)).toHaveLength(1);
    return found[0];
  };
  /** The metric names an alarm reads (a plain metric, or each metric of its math). */
  const metricNames = (alarm: any): string[] =>
    alarm.MetricName
      ? [alarm.MetricName]
      : (alarm.Metrics ?? []).flatMap((m: any) => (m.MetricStat ? [m.MetricStat.Metric.MetricName] : []));

  it('every alarm notifies the one topic, on alarm and on recovery, and lists its threshold', () => {
    const list = alarms();
    // 5xx rate, auto-end, DynamoDB, live posts, emergencies; errors and throttles of each function; each dead-letter queue.
    const functions = functionPlan().length + 3;
    expect(list).toHaveLength(5 + 2 * functions + 3);
    for (const alarm of list) {
      expect(alarm.AlarmActions).toEqual([{ Ref: topicId() }]);
      expect(alarm.OKActions).toEqual([{ Ref: topicId() }]);
      expect(alarm.ComparisonOperator).toBe('GreaterThanOrEqualToThreshold');
      expect(alarm.TreatMissingData).toBe('notBreaching');
    }
  });

  it('HTTP 5xx rate: 1% of the requests of 5 minutes (once 20 came)', () => {
    const alarm = alarmNamed(/answered 5xx/);
    expect(alarm.Threshold).toBe(1);
    expect(metricNames(alarm).sort()).toEqual(['5xx', 'Count']);
    const math = alarm.Metrics.find((m: any) => m.Expression);
    expect(math.Expression).toBe('IF(requests >= 20, 100 * FILL(errors, 0) / requests, 0)');
  });

  it('Lambda errors and throttles: one alarm each per function, at the first one', () => {
    const ids = [
      ...functionPlan().map((plan) => plan.id),
      IMPORT_JOBS.id,
      MAIL_SENDER.id,
      'rotate-origin-secret',
    ];
    for (const id of ids) {
      for (const metric of ['Errors', 'Throttles']) {
        const found = alarms().filter(
          (a) =>
            a.MetricName === metric &&
            a.AlarmDescription.toLowerCase().includes(`the ${id.toLowerCase()} function`),
        );
        expect(found, `${id} ${metric}`).toHaveLength(1);
        expect(found[0]).toMatchObject({
          Threshold: 1,
          Namespace: 'AWS/Lambda',
          Statistic: 'Sum',
          Period: 300,
        });
      }
    }
  });

  it('the auto-end schedule: its failed runs and EventBridge failed invocations, twice in 5 minutes', () => {
    const alarm = alarmNamed(/auto-end schedule failed/);
    expect(alarm.Threshold).toBe(2);
    expect(metricNames(alarm).sort()).toEqual(['AutoEndFailed', 'FailedInvocations']);
  });

  it('DynamoDB throttled requests: 10 in 5 minutes, every operation', () => {
    const alarm = alarmNamed(/DynamoDB throttled/);
    expect(alarm.Threshold).toBe(10);
    expect(new Set(metricNames(alarm))).toEqual(new Set(['ThrottledRequests']));
    expect(metricNames(alarm).length).toBeGreaterThanOrEqual(5);
  });

  it('live post failures other than gone connections: 5 in 5 minutes', () => {
    const alarm = alarmNamed(/refused 5 or more live posts/);
    expect(alarm).toMatchObject({ Threshold: 5, MetricName: 'LivePostsFailed', Namespace: 'Curbside' });
    expect(alarm.Dimensions).toEqual([{ Name: 'service', Value: 'curbside' }]);
  });

  it('an emergency unacknowledged for 2 minutes: the every-minute watch counts one', () => {
    const alarm = alarmNamed(/emergency alert has been active for 2 minutes/);
    expect(alarm).toMatchObject({
      Threshold: 1,
      MetricName: 'EmergencyAlertsUnacknowledged',
      Statistic: 'Maximum',
      Period: 60,
    });
    expect(schedules.map((s) => s.name)).toContain('alert-watch');
  });

  it('every asynchronous function has its on-failure destination: an encrypted queue kept 14 days, watched by an alarm', () => {
    const queues = ofType('AWS::SQS::Queue');
    expect(queues).toHaveLength(3);
    for (const [id, queue] of queues) {
      expect(queue.Properties.MessageRetentionPeriod).toBe(14 * 24 * 60 * 60);
      expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
      const config = only(
        ofType('AWS::Lambda::EventInvokeConfig').filter(
          ([, c]) =>
            JSON.stringify(c.Properties.DestinationConfig?.OnFailure?.Destination) ===
            JSON.stringify({ 'Fn::GetAtt': [id, 'Arn'] }),
        ),
      );
      expect(config).toBeDefined();
      const alarm = alarms().find((a) => JSON.stringify(a.Dimensions ?? []).includes(id));
      expect(alarm, id).toMatchObject({
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Threshold: 1,
      });
    }
    const invokeConfigs = ofType('AWS::Lambda::EventInvokeConfig').map(([, c]) =>
      JSON.stringify(c.Properties.FunctionName),
    );
    for (const id of [IMPORT_JOBS.id, MAIL_SENDER.id]) {
      expect(invokeConfigs).toContain(JSON.stringify({ Ref: logicalId(id) }));
    }
    expect(invokeConfigs).toContain(
      JSON.stringify({
        Ref: curbside.stack.getLogicalId(curbside.stack.rotationFunction.node.defaultChild as CfnFunction),
      }),
    );
  });

  it('the topic is encrypted with a rotated key CloudWatch may use; the email subscription is the AlarmEmail parameter', () => {
    const [, topic] = only(ofType('AWS::SNS::Topic'));
    expect(topic.Properties.KmsMasterKeyId).toBeDefined();
    const [, key] = only(ofType('AWS::KMS::Key'));
    expect(key.Properties.EnableKeyRotation).toBe(true);
    expect(JSON.stringify(key.Properties.KeyPolicy)).toContain('cloudwatch.amazonaws.com');
    const parameters = curbside.template.toJSON().Parameters;
    expect(parameters.AlarmEmail).toMatchObject({ Type: 'String', Default: '' });
    const [, subscription] = only(ofType('AWS::SNS::Subscription'));
    expect(subscription.Properties).toMatchObject({ Protocol: 'email', Endpoint: { Ref: 'AlarmEmail' } });
    expect(subscription.Condition).toBeDefined();
  });

  it('one dashboard of a dismissal: requests, latency p50 and p99, live posts, errors', () => {
    const [, dashboard] = only(ofType('AWS::CloudWatch::Dashboard'));
    const body = JSON.stringify(dashboard.Properties.DashboardBody);
    for (const title of ['Requests', 'Latency (ms)', 'Live posts', 'Errors']) expect(body).toContain(title);
    for (const stat of ['p50', 'p99', 'LivePosts', 'LivePostsFailed', '5xx']) expect(body).toContain(stat);
  });
});

describe('checks', () => {
  it('cdk-nag AwsSolutions finds no unsuppressed error or warning', () => {
    const annotations = Annotations.fromStack(curbside.stack);
    const nag = Match.stringLikeRegexp('AwsSolutions-.*');
    const summarize = (messages: { id: string; entry: { data?: unknown } }[]) =>
      messages.map((m) => `${m.id}: ${String(m.entry.data).split('\n')[0]}`);
    expect(summarize(annotations.findError('*', nag))).toEqual([]);
    expect(summarize(annotations.findWarning('*', nag))).toEqual([]);
  });

  it('accepts far fewer wildcard grants than before the grouping (IAM5 suppressions: 94 then)', () => {
    const iam5 = Object.values(curbside.resources).flatMap((r) =>
      (r.Metadata?.cdk_nag?.rules_to_suppress ?? []).filter(
        (s: { id: string }) => s.id === 'AwsSolutions-IAM5',
      ),
    );
    // 45 with the import-jobs function (its index Query and ManageConnections, on the role and its policy);
    // 47 with the mail sender (its index Query, on the role and its policy).
    expect(iam5.length).toBeLessThanOrEqual(47);
  });
});
