import { BUSINESS_METRICS, type BusinessMetric, METRICS_NAMESPACE, METRICS_SERVICE } from '@curbside/api';
import { CfnCondition, CfnParameter, Duration, Fn, Stack } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as destinations from 'aws-cdk-lib/aws-lambda-destinations';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

/**
 * An asynchronous function's on-failure destination (issue 55): an invocation
 * that fails every try (`retryAttempts` more after the first) goes, with its
 * event and error, to its own dead-letter queue (SQS-managed encryption, kept
 * 14 days, TLS only), which an alarm watches.
 */
export const withDeadLetterQueue = (fn: lambda.Function, id: string, retryAttempts: number): sqs.Queue => {
  const queue = new sqs.Queue(fn.stack, `${id}DeadLetters`, {
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    retentionPeriod: Duration.days(14),
    enforceSSL: true,
  });
  NagSuppressions.addResourceSuppressions(queue, [
    {
      id: 'AwsSolutions-SQS3',
      reason: `It is the dead-letter queue: the on-failure destination of the ${id} function's asynchronous invocations.`,
    },
  ]);
  fn.configureAsyncInvoke({ retryAttempts, onFailure: new destinations.SqsDestination(queue) });
  return queue;
};

/** One alarm of the stack: what it watches, when it fires, and why someone is woken. */
export interface AlarmSpec {
  id: string;
  description: string;
  metric: cloudwatch.IMetric;
  threshold: number;
  evaluationPeriods?: number;
}

export interface OperationsProps {
  /** Every function of the stack, by id (`http-carLine`, `ws`, `import-jobs`, …). */
  functions: ReadonlyMap<string, lambda.Function>;
  httpApi: apigw.HttpApi;
  table: dynamodb.Table;
  /** The session auto-end schedule's rule. */
  autoEndRule: events.Rule;
  /** The dead-letter queue of each asynchronous function, by function id. */
  deadLetterQueues: ReadonlyMap<string, sqs.Queue>;
}

const FIVE_MINUTES = Duration.minutes(5);

/** A business metric of `packages/api` (the namespace and the one dimension the functions send). */
export const businessMetric = (
  metric: BusinessMetric,
  options: { statistic?: string; period?: Duration; label?: string } = {},
) =>
  new cloudwatch.Metric({
    namespace: METRICS_NAMESPACE,
    metricName: BUSINESS_METRICS[metric].name,
    dimensionsMap: { service: METRICS_SERVICE },
    statistic: options.statistic ?? 'Sum',
    period: options.period ?? FIVE_MINUTES,
    ...(options.label ? { label: options.label } : {}),
  });

/**
 * Knowing at 3 pm that it works (issue 55): the alarms on what wakes someone,
 * all to one SNS topic (encrypted) whose email subscription is the stack
 * parameter `AlarmEmail`, and one dashboard of a dismissal.
 */
export class Operations extends Construct {
  readonly topic: sns.Topic;
  readonly alarms: cloudwatch.Alarm[] = [];
  readonly dashboard: cloudwatch.Dashboard;
  readonly alarmEmail: CfnParameter;

  constructor(scope: Construct, id: string, props: OperationsProps) {
    super(scope, id);
    const stack = Stack.of(this);

    // --- Who is woken: an SNS topic, encrypted with a key CloudWatch may use, and its email subscription.
    const key = new kms.Key(this, 'AlarmTopicKey', {
      description: 'Curbside: encrypts the alarm topic (CloudWatch alarms publish to it)',
      enableKeyRotation: true,
    });
    key.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:SourceAccount': stack.account } },
      }),
    );
    this.topic = new sns.Topic(this, 'AlarmTopic', {
      displayName: 'Curbside alarms',
      masterKey: key,
      enforceSSL: true,
    });
    this.alarmEmail = new CfnParameter(stack, 'AlarmEmail', {
      type: 'String',
      default: '',
      description:
        'Who is woken when an alarm fires: an email address subscribed to the alarm topic (confirm the email AWS sends). Empty: no subscription.',
      allowedPattern: '^$|^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$',
    });
    const hasEmail = new CfnCondition(this, 'HasAlarmEmail', {
      expression: Fn.conditionNot(Fn.conditionEquals(this.alarmEmail.valueAsString, '')),
    });
    const subscription = new sns.Subscription(this, 'AlarmEmailSubscription', {
      topic: this.topic,
      protocol: sns.SubscriptionProtocol.EMAIL,
      endpoint: this.alarmEmail.valueAsString,
    });
    (subscription.node.defaultChild as sns.CfnSubscription).cfnOptions.condition = hasEmail;

    // --- What wakes someone.
    const requests = props.httpApi.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' });
    const serverErrors = props.httpApi.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' });
    const specs: AlarmSpec[] = [
      {
        id: 'HttpServerErrorRate',
        description:
          'More than 1% of API requests answered 5xx in 5 minutes (counted once 20 requests came): staff screens are failing.',
        metric: new cloudwatch.MathExpression({
          expression: 'IF(requests >= 20, 100 * FILL(errors, 0) / requests, 0)',
          usingMetrics: { requests, errors: serverErrors },
          period: FIVE_MINUTES,
          label: 'HTTP 5xx (% of requests)',
        }),
        threshold: 1,
      },
    ];
    for (const [fnId, fn] of props.functions) {
      specs.push(
        {
          id: `Errors-${fnId}`,
          description: `The ${fnId} function failed (an unhandled error, a timeout or a crash) in the last 5 minutes.`,
          metric: fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
          threshold: 1,
        },
        {
          id: `Throttles-${fnId}`,
          description: `Lambda turned away invocations of the ${fnId} function (concurrency) in the last 5 minutes.`,
          metric: fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }),
          threshold: 1,
        },
      );
    }
    specs.push(
      {
        id: 'AutoEndFailures',
        description:
          'The session auto-end schedule failed twice or more in 5 minutes (its run threw, or EventBridge could not invoke it): sessions past their end time stay open.',
        metric: new cloudwatch.MathExpression({
          expression: 'FILL(failed, 0) + FILL(uninvoked, 0)',
          usingMetrics: {
            failed: businessMetric('autoEndFailed'),
            uninvoked: new cloudwatch.Metric({
              namespace: 'AWS/Events',
              metricName: 'FailedInvocations',
              dimensionsMap: { RuleName: props.autoEndRule.ruleName },
              statistic: 'Sum',
              period: FIVE_MINUTES,
            }),
          },
          period: FIVE_MINUTES,
          label: 'Auto-end failures',
        }),
        threshold: 2,
      },
      {
        id: 'DynamoDbThrottles',
        description: 'DynamoDB throttled 10 or more requests to the data table in 5 minutes.',
        // The operations the functions use (an alarm's math takes at most 10 metrics).
        metric: props.table.metricThrottledRequestsForOperations({
          period: FIVE_MINUTES,
          operations: [
            dynamodb.Operation.GET_ITEM,
            dynamodb.Operation.BATCH_GET_ITEM,
            dynamodb.Operation.QUERY,
            dynamodb.Operation.PUT_ITEM,
            dynamodb.Operation.UPDATE_ITEM,
            dynamodb.Operation.DELETE_ITEM,
            dynamodb.Operation.BATCH_WRITE_ITEM,
            dynamodb.Operation.TRANSACT_WRITE_ITEMS,
            dynamodb.Operation.TRANSACT_GET_ITEMS,
          ],
        }),
        threshold: 10,
      },
      {
        id: 'LivePostFailures',
        description:
          'API Gateway refused 5 or more live posts in 5 minutes for a reason other than a closed connection: screens stop updating.',
        metric: businessMetric('livePostsFailed'),
        threshold: 5,
      },
      {
        id: 'EmergencyUnacknowledged',
        description:
          'An emergency alert has been active for 2 minutes with nobody acknowledging it ("I\'m on it").',
        metric: businessMetric('emergenciesUnacknowledged', {
          statistic: 'Maximum',
          period: Duration.minutes(1),
        }),
        threshold: 1,
      },
    );
    for (const [fnId, queue] of props.deadLetterQueues) {
      specs.push({
        id: `DeadLetters-${fnId}`,
        description: `A failed asynchronous invocation of the ${fnId} function is in its dead-letter queue (kept 14 days).`,
        metric: queue.metricApproximateNumberOfMessagesVisible({
          period: FIVE_MINUTES,
          statistic: 'Maximum',
        }),
        threshold: 1,
      });
    }
    const action = new actions.SnsAction(this.topic);
    for (const spec of specs) {
      const alarm = new cloudwatch.Alarm(this, spec.id, {
        alarmDescription: spec.description,
        metric: spec.metric,
        threshold: spec.threshold,
        evaluationPeriods: spec.evaluationPeriods ?? 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
      alarm.addAlarmAction(action);
      alarm.addOkAction(action);
      this.alarms.push(alarm);
    }

    // --- One dashboard of a dismissal.
    const oneMinute = Duration.minutes(1);
    const lambdaErrors = new cloudwatch.MathExpression({
      expression: 'SUM(METRICS())',
      usingMetrics: Object.fromEntries(
        [...props.functions].map(([fnId, fn], i) => [
          `e${i}`,
          fn.metricErrors({ period: oneMinute, statistic: 'Sum', label: fnId }),
        ]),
      ),
      period: oneMinute,
      label: 'Lambda errors (every function)',
    });
    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      defaultInterval: Duration.hours(3),
      widgets: [
        [
          new cloudwatch.GraphWidget({
            title: 'Requests',
            left: [props.httpApi.metricCount({ period: oneMinute, statistic: 'Sum', label: 'API requests' })],
            width: 8,
          }),
          new cloudwatch.GraphWidget({
            title: 'Latency (ms)',
            left: [
              props.httpApi.metricLatency({ period: oneMinute, statistic: 'p50', label: 'p50' }),
              props.httpApi.metricLatency({ period: oneMinute, statistic: 'p99', label: 'p99' }),
            ],
            width: 8,
          }),
          new cloudwatch.GraphWidget({
            title: 'Live posts',
            left: [
              businessMetric('livePosts', { period: oneMinute, label: 'sent' }),
              businessMetric('livePostsFailed', { period: oneMinute, label: 'failed' }),
            ],
            width: 8,
          }),
        ],
        [
          new cloudwatch.GraphWidget({
            title: 'Errors',
            left: [
              props.httpApi.metricServerError({ period: oneMinute, statistic: 'Sum', label: 'HTTP 5xx' }),
              lambdaErrors,
            ],
            width: 8,
          }),
          new cloudwatch.GraphWidget({
            title: 'The car line',
            left: [
              businessMetric('carsQueued', { period: oneMinute, label: 'cars queued' }),
              businessMetric('releases', { period: oneMinute, label: 'students released' }),
              businessMetric('alertsRaised', { period: oneMinute, label: 'alerts raised' }),
            ],
            width: 8,
          }),
          new cloudwatch.GraphWidget({
            title: 'Alerts: seconds to acknowledge',
            left: [
              businessMetric('alertAckSeconds', { period: oneMinute, statistic: 'Maximum', label: 'max' }),
            ],
            right: [
              businessMetric('emergenciesUnacknowledged', {
                period: oneMinute,
                statistic: 'Maximum',
                label: 'emergencies unacknowledged',
              }),
            ],
            width: 8,
          }),
        ],
        [new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms, width: 24 })],
      ],
    });
  }
}
