import { fileURLToPath } from 'node:url';
import {
  type FunctionPlan,
  functionPlan,
  IMPORT_JOBS,
  MAIL_SENDER,
  ORIGIN_SECRET_ROTATION,
  parseOrigins,
  type RouteDefinition,
  routeKeyOf,
  WS_ROUTES,
  type WsRouteKey,
} from '@curbside/api';
import { connectionTableDefinition, tableDefinition } from '@curbside/store/table';
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration, WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { functionsDist as defaultFunctionsDist } from './bundles';
import {
  bindEdge,
  bindMail,
  bindTables,
  bindWebSocketManagement,
  distributionArn,
  HandlerFunction,
} from './handler-function';
import { Site } from './site';

const repoPath = (relative: string) => fileURLToPath(new URL(`../../${relative}`, import.meta.url));

export interface CurbsideStackProps extends StackProps {
  /** Bundles from `functions/build.ts`, one folder per function id. Default `functions/dist`. */
  functionsDist?: string;
  /** The built web app. Default `web/dist`. */
  webDist?: string;
  /** The route table (default `routeList`); a test passes another to measure what a route costs. */
  routes?: readonly RouteDefinition[];
}

/**
 * One JSON line per HTTP API request: no cookies, no bodies, and the route's
 * template instead of the path (`GET /api/pickup-codes/lookup/{code}`), so a
 * pickup code never reaches a log.
 */
export const HTTP_ACCESS_LOG = {
  requestId: '$context.requestId',
  time: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  routeKey: '$context.routeKey',
  status: '$context.status',
  latencyMs: '$context.responseLatency',
  integrationLatencyMs: '$context.integrationLatency',
  integrationStatus: '$context.integrationStatus',
  integrationError: '$context.integrationErrorMessage',
  responseLength: '$context.responseLength',
};

/** Stage throttling: far above a school's rush, low enough to cap a runaway client's bill. */
const THROTTLE = { rateLimit: 500, burstLimit: 1000 };

/** How often CloudFront's origin secret is replaced. */
const ORIGIN_SECRET_ROTATION_DAYS = 30;

/**
 * Curbside in AWS: the data table and the live-connection table, a few
 * functions from the route table's function plan (one per area, the
 * WebSocket routes, the schedules), an HTTP API with one route per entry of
 * the route table, a WebSocket API, the EventBridge schedules, and CloudFront
 * + S3 in front of it all: nothing reaches a function but through CloudFront.
 */
export class CurbsideStack extends Stack {
  readonly table: dynamodb.Table;
  readonly connectionTable: dynamodb.Table;
  /** The function of each plan id (`http-carLine`, `ws`, `scheduled`). */
  readonly functions: ReadonlyMap<string, lambda.Function>;
  readonly rotationFunction: lambda.Function;
  readonly originSecret: secretsmanager.Secret;
  /** Clever's client secret, when the deployment names its Clever app (context `curbside:cleverClientId`). */
  readonly cleverClientSecret?: secretsmanager.Secret;
  readonly cleverDistrictTokens?: secretsmanager.Secret;
  readonly importJobsFunction: lambda.Function;
  /** Sends emailed invites (the only function with ses:SendEmail), one invocation at a time. */
  readonly mailSenderFunction: lambda.Function;
  readonly httpApi: apigw.HttpApi;
  readonly webSocketApi: apigw.WebSocketApi;
  readonly webSocketStage: apigw.WebSocketStage;
  readonly site: Site;

  constructor(scope: Construct, id: string, props: CurbsideStackProps = {}) {
    super(scope, id, props);
    const functionsDist = props.functionsDist ?? defaultFunctionsDist;
    const webDist = props.webDist ?? repoPath('web/dist');
    const plans = functionPlan(props.routes);

    // --- The tables, from the definitions the laptop runtime also uses.
    const string = (name: string) => ({ name, type: dynamodb.AttributeType.STRING });
    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: string(tableDefinition.partitionKey),
      sortKey: string(tableDefinition.sortKey),
      timeToLiveAttribute: tableDefinition.ttlAttribute,
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of tableDefinition.globalSecondaryIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: string(index.partitionKey),
        sortKey: string(index.sortKey),
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }
    // Connections live at most 2 hours: no backups, and nothing to keep when the stack goes.
    this.connectionTable = new dynamodb.Table(this, 'ConnectionTable', {
      partitionKey: string(connectionTableDefinition.partitionKey),
      sortKey: string(connectionTableDefinition.sortKey),
      timeToLiveAttribute: connectionTableDefinition.ttlAttribute,
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: false },
      removalPolicy: RemovalPolicy.DESTROY,
    });

    // --- The secret CloudFront adds to every request it forwards to the APIs.
    this.originSecret = new secretsmanager.Secret(this, 'OriginSecret', {
      description:
        'Curbside: CloudFront sends this to the APIs; the functions serve only requests that carry it',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });

    // --- One function per entry of the function plan, each with only its own access.
    const functions = new Map<string, lambda.Function>();
    for (const plan of plans) {
      const handler = new HandlerFunction(this, plan.id, {
        bundleDir: `${functionsDist}/${plan.id}`,
        timeout: Duration.seconds(plan.access.timeoutSeconds),
        memorySize: plan.access.memoryMb,
        description: describe(plan),
      });
      bindTables(handler.fn, plan.access, { data: this.table, connections: this.connectionTable });
      functions.set(plan.id, handler.fn);
    }
    this.functions = functions;

    // --- The import-jobs function: invoked asynchronously by the import routes, the nightly
    // sync and itself (a job continues in a new invocation before the 15-minute limit).
    const importJobs = new HandlerFunction(this, IMPORT_JOBS.id, {
      bundleDir: `${functionsDist}/${IMPORT_JOBS.id}`,
      timeout: Duration.seconds(IMPORT_JOBS.access.timeoutSeconds),
      memorySize: IMPORT_JOBS.access.memoryMb,
      description: 'Curbside: runs student-information (Clever) import jobs',
    }).fn;
    bindTables(importJobs, IMPORT_JOBS.access, { data: this.table, connections: this.connectionTable });
    // A run that fails marks its job failed (to be resumed); Lambda must not run it again on its own.
    importJobs.configureAsyncInvoke({ retryAttempts: 0 });
    this.importJobsFunction = importJobs;
    for (const starter of [
      ...plans.filter((plan) => plan.kind === 'http' && plan.area === 'sis'),
      ...plans.filter((plan) => plan.kind === 'scheduled'),
    ]) {
      const invoker = functions.get(starter.id) as lambda.Function;
      // The function itself, not its versions (`grantInvoke` would add `:*`).
      invoker.addToRolePolicy(
        new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [importJobs.functionArn] }),
      );
      invoker.addEnvironment('IMPORT_JOBS_FUNCTION', importJobs.functionName);
    }
    // Continuing itself: a separate policy (the function's own policy cannot name the function).
    new iam.Policy(this, 'ImportJobsContinue', {
      roles: [importJobs.role as iam.IRole],
      statements: [
        new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [importJobs.functionArn] }),
      ],
    });
    const fn = (planId: string): lambda.Function => {
      const found = functions.get(planId);
      if (!found) throw new Error(`No function ${planId} in the function plan`);
      return found;
    };

    // --- WebSocket API: $connect / $disconnect / $default, all served by the ws function, stage `ws`.
    const wsIntegration = new WebSocketLambdaIntegration('WsIntegration', fn('ws'));
    this.webSocketApi = new apigw.WebSocketApi(this, 'WebSocketApi', {
      description: 'Curbside live events',
      connectRouteOptions: { integration: wsIntegration },
      disconnectRouteOptions: { integration: wsIntegration },
      defaultRouteOptions: { integration: wsIntegration },
    });
    const wsAccessLogs = ['true', true].includes(this.node.tryGetContext('curbside:wsAccessLogs'));
    this.webSocketStage = new apigw.WebSocketStage(this, 'WebSocketStage', {
      webSocketApi: this.webSocketApi,
      stageName: 'ws',
      autoDeploy: true,
      throttle: THROTTLE,
      ...(wsAccessLogs
        ? {
            accessLogSettings: {
              destination: new apigw.LogGroupLogDestination(
                new logs.LogGroup(this, 'WebSocketAccessLogs', { retention: logs.RetentionDays.ONE_MONTH }),
              ),
            },
          }
        : {}),
    });
    for (const plan of plans) {
      if (plan.access.publishes) bindWebSocketManagement(fn(plan.id), this.webSocketStage);
    }
    // Deactivating people ends their sign-ins and closes their live connections.
    bindWebSocketManagement(importJobs, this.webSocketStage);

    // --- HTTP API: one route per entry of the route table; the routes of an area share
    // its function's one integration and one invoke permission (a route costs one resource).
    this.httpApi = new apigw.HttpApi(this, 'HttpApi', {
      description: 'Curbside HTTP API (reached through CloudFront at /api/*)',
      createDefaultStage: false,
    });
    new apigw.HttpStage(this, 'HttpStage', {
      httpApi: this.httpApi,
      autoDeploy: true,
      throttle: THROTTLE,
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(
          new logs.LogGroup(this, 'HttpAccessLogs', { retention: logs.RetentionDays.ONE_MONTH }),
        ),
        format: AccessLogFormat.custom(JSON.stringify(HTTP_ACCESS_LOG)),
      },
    });
    for (const plan of plans) {
      if (plan.kind !== 'http') continue;
      const integration = new HttpLambdaIntegration(`Integration-${plan.area}`, fn(plan.id), {
        payloadFormatVersion: apigw.PayloadFormatVersion.VERSION_2_0,
        scopePermissionToRoute: false,
      });
      for (const route of plan.routes) {
        new apigw.HttpRoute(this.httpApi, `Route-${route.name}`, {
          httpApi: this.httpApi,
          routeKey: apigw.HttpRouteKey.with(route.path, apigw.HttpMethod[route.method]),
          integration,
        });
      }
    }

    // --- Schedules: one rule each, all invoking the scheduled function, which dispatches by name.
    for (const plan of plans) {
      if (plan.kind !== 'scheduled') continue;
      for (const schedule of plan.schedules) {
        new events.Rule(this, `Schedule-${schedule.name}`, {
          description:
            schedule.dailyAtHourUtc === undefined
              ? `Runs ${schedule.name} every ${schedule.everyMinutes} minute(s)`
              : `Runs ${schedule.name} daily at ${schedule.dailyAtHourUtc}:00 UTC`,
          schedule:
            schedule.dailyAtHourUtc === undefined
              ? events.Schedule.rate(Duration.minutes(schedule.everyMinutes))
              : events.Schedule.cron({ minute: '0', hour: String(schedule.dailyAtHourUtc) }),
          targets: [
            new targets.LambdaFunction(fn(plan.id), {
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
      }
    }

    // --- CloudFront + S3.
    const domainName: string | undefined = this.node.tryGetContext('curbside:domainName');
    const certificateArn: string | undefined = this.node.tryGetContext('curbside:certificateArn');
    const mapOrigins: string | undefined = this.node.tryGetContext('curbside:mapOrigins');
    this.site = new Site(this, 'Site', {
      httpApiId: this.httpApi.apiId,
      webSocketApiId: this.webSocketApi.apiId,
      webDist,
      originSecret: this.originSecret,
      ...(mapOrigins ? { mapOrigins: parseOrigins(mapOrigins) } : {}),
      ...(domainName && certificateArn
        ? {
            domain: {
              names: [domainName],
              certificate: acm.Certificate.fromCertificateArn(this, 'Certificate', certificateArn),
            },
          }
        : {}),
    });
    const siteUrl = `https://${domainName ?? this.site.distribution.distributionDomainName}`;
    // Mutations and the live connection must carry the site's Origin; behind CloudFront the
    // request's Host is the execute-api host, so the functions are told the site origins.
    const allowedOrigins = [`https://${this.site.distribution.distributionDomainName}`];
    if (domainName) allowedOrigins.push(`https://${domainName}`);
    for (const plan of plans) {
      if (plan.kind === 'scheduled') continue;
      bindEdge(fn(plan.id), {
        secret: this.originSecret,
        allowedOrigins: allowedOrigins.join(','),
        // /api/* reaches the HTTP functions through CloudFront, whose function stamps the visitor's address.
        trustViewerAddress: plan.kind === 'http',
      });
    }

    // --- Email (parent invites, password resets): the sender is a verified SES identity named by CDK context
    // curbside:mailFrom; only the function that sends gets it and ses:SendEmail. The email route
    // queues a mail run and invokes the mail sender asynchronously; the sender runs one invocation
    // at a time (reserved concurrency 1), paced at curbside:mailSendRate messages a second (default
    // 10, under SES's default account rate of 14), continuing itself before its 15-minute limit.
    const mailFrom: string =
      this.node.tryGetContext('curbside:mailFrom') ??
      `Curbside <no-reply@${domainName ?? 'curbside.example'}>`;
    const mailSender = new HandlerFunction(this, MAIL_SENDER.id, {
      bundleDir: `${functionsDist}/${MAIL_SENDER.id}`,
      timeout: Duration.seconds(MAIL_SENDER.access.timeoutSeconds),
      memorySize: MAIL_SENDER.access.memoryMb,
      description: 'Curbside: sends emailed parent invites through SES, paced under its sending rate',
      reservedConcurrentExecutions: 1,
    }).fn;
    bindTables(mailSender, MAIL_SENDER.access, { data: this.table, connections: this.connectionTable });
    // A failed invocation is run again (twice, Lambda's default): claimed messages are never sent twice.
    mailSender.configureAsyncInvoke({ retryAttempts: 2 });
    const mailSendRate = Number(this.node.tryGetContext('curbside:mailSendRate') ?? 10);
    if (!(mailSendRate > 0)) throw new Error('curbside:mailSendRate must be a positive number');
    mailSender.addEnvironment('MAIL_SEND_RATE', String(mailSendRate));
    this.mailSenderFunction = mailSender;
    for (const plan of plans) {
      if (plan.access.sendsEmail) bindMail(fn(plan.id), mailFrom);
    }
    bindMail(mailSender, mailFrom);
    // The functions whose routes queue mail: emailed invites, and a parent's password-reset link (issue 50).
    const mailing = new Set(['emailParentInvites', 'forgotParentPassword']);
    for (const plan of plans) {
      if (plan.kind !== 'http' || !plan.routes.some((route) => mailing.has(route.name))) continue;
      const starter = fn(plan.id);
      starter.addToRolePolicy(
        new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [mailSender.functionArn] }),
      );
      starter.addEnvironment('MAIL_SENDER_FUNCTION', mailSender.functionName);
    }
    new iam.Policy(this, 'MailSenderContinue', {
      roles: [mailSender.role as iam.IRole],
      statements: [
        new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [mailSender.functionArn] }),
      ],
    });

    // --- Clever single sign-on, when the deployment names its Clever app (context curbside:cleverClientId):
    // the client secret lives in Secrets Manager (set its value after the first deploy), read by the auth function only.
    const cleverClientId: string | undefined = this.node.tryGetContext('curbside:cleverClientId');
    if (cleverClientId) {
      this.cleverClientSecret = new secretsmanager.Secret(this, 'CleverClientSecret', {
        description:
          "Curbside: the Clever app's client secret (single sign-on); set it from Clever's dashboard",
      });
      const auth = fn('http-auth');
      auth.addEnvironment('CLEVER_CLIENT_ID', cleverClientId);
      auth.addEnvironment('CLEVER_CLIENT_SECRET_ARN', this.cleverClientSecret.secretArn);
      this.cleverClientSecret.grantRead(auth);
      NagSuppressions.addResourceSuppressions(this.cleverClientSecret, [
        {
          id: 'AwsSolutions-SMG4',
          reason:
            "Clever issues the client secret: it is replaced in Clever's dashboard, not by a rotation Lambda",
        },
      ]);

      // The roster import's district-app tokens, JSON { "<clever district id>": "<token>" }: set
      // from Clever's dashboard as districts connect; read by the import page, the sync and the jobs.
      this.cleverDistrictTokens = new secretsmanager.Secret(this, 'CleverDistrictTokens', {
        description:
          "Curbside: Clever district-app tokens, JSON { districtId: token } (from Clever's dashboard)",
      });
      const readers = [
        importJobs,
        ...plans
          .filter((plan) => (plan.kind === 'http' && plan.area === 'sis') || plan.kind === 'scheduled')
          .map((plan) => fn(plan.id)),
      ];
      for (const reader of readers) {
        reader.addEnvironment('CLEVER_DISTRICT_TOKENS_ARN', this.cleverDistrictTokens.secretArn);
        this.cleverDistrictTokens.grantRead(reader);
      }
      NagSuppressions.addResourceSuppressions(this.cleverDistrictTokens, [
        {
          id: 'AwsSolutions-SMG4',
          reason:
            'Clever issues the district tokens: a district revokes or reissues them in Clever, not by a rotation Lambda',
        },
      ]);
    }

    // --- The origin secret's rotation: a new value, sent by CloudFront, then made current.
    const rotation = new HandlerFunction(this, ORIGIN_SECRET_ROTATION.id, {
      bundleDir: `${functionsDist}/${ORIGIN_SECRET_ROTATION.id}`,
      timeout: Duration.minutes(1),
      memorySize: 256,
      description: 'Curbside: rotates the origin secret CloudFront sends to the APIs',
    });
    this.rotationFunction = rotation.fn;
    rotation.fn.addEnvironment('DISTRIBUTION_ID', this.site.distribution.distributionId);
    rotation.fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['cloudfront:GetDistributionConfig', 'cloudfront:UpdateDistribution'],
        resources: [distributionArn(this, this.site.distribution.distributionId)],
      }),
    );
    this.originSecret.addRotationSchedule('Rotation', {
      rotationLambda: rotation.fn,
      automaticallyAfter: Duration.days(ORIGIN_SECRET_ROTATION_DAYS),
    });

    new CfnOutput(this, 'SiteUrl', { value: siteUrl, description: 'The web app' });
    new CfnOutput(this, 'WebSocketUrl', {
      value: `${siteUrl.replace(/^https/, 'wss')}/ws`,
      description: 'The live connection as browsers open it (through CloudFront)',
    });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });

    this.suppressNagFindings(wsAccessLogs);
  }

  /** Every cdk-nag finding this stack accepts, each with its reason. */
  private suppressNagFindings(wsAccessLogs: boolean) {
    const noAuthorizer = {
      id: 'AwsSolutions-APIG4',
      reason:
        'Authorization happens in the handlers: each route declares its access in the route table (public, signed-in, parent, minimum staff role) and the handler checks the HttpOnly session cookie against the server-side session record. API Gateway authorizers cannot read that session store without a second Lambda per request.',
    };
    NagSuppressions.addResourceSuppressions(this.httpApi, [noAuthorizer], true);
    NagSuppressions.addResourceSuppressions(
      this.webSocketApi,
      [
        {
          ...noAuthorizer,
          reason:
            'The WebSocket API is open on purpose: anonymous screens (bus map, bus driver) join the public channel. $connect checks the origin secret and the Origin, reads the session cookie and joins staff and parents to their own channels only; no other route lets a client choose a channel.',
        },
      ],
      true,
    );
    if (!wsAccessLogs) {
      NagSuppressions.addResourceSuppressions(this.webSocketStage, [
        {
          id: 'AwsSolutions-APIG1',
          reason:
            'WebSocket stage logging needs the account-wide API Gateway CloudWatch role (AWS::ApiGateway::Account), which this stack does not own. Set context curbside:wsAccessLogs=true in accounts where that role is configured; connection events are logged by the ws function meanwhile.',
        },
      ]);
    }
    NagSuppressions.addResourceSuppressions(this.connectionTable, [
      {
        id: 'AwsSolutions-DDB3',
        reason:
          'The connection table holds only live WebSocket connections (each at most 2 hours old, kept again by the next $connect): nothing to recover to a point in time. The data table has point-in-time recovery.',
      },
    ]);
    for (const fn of [
      ...this.functions.values(),
      this.rotationFunction,
      this.importJobsFunction,
      this.mailSenderFunction,
    ]) {
      NagSuppressions.addResourceSuppressions(
        fn,
        [
          {
            id: 'AwsSolutions-L1',
            reason:
              'Node.js 22 is pinned on purpose: functions/build.ts bundles for target node22 and the laptop runtime tests on Node 20/22. Move runtime and build target together.',
          },
        ],
        true,
      );
    }
    // Only the grants the route table's plan asks for carry wildcards, each with its reason.
    for (const fn of [...this.functions.values(), this.importJobsFunction]) {
      NagSuppressions.addResourceSuppressions(
        fn.role as iam.IRole,
        [
          {
            id: 'AwsSolutions-IAM5',
            reason:
              'Query grants include the data table\'s indexes (table ARN + "/index/*"): the store names the index of each access pattern in its README.',
            appliesTo: [{ regex: '/^Resource::<Table[A-Za-z0-9]+\\.Arn>\\/index\\/\\*$/g' }],
          },
          {
            id: 'AwsSolutions-IAM5',
            reason:
              'Posting to and closing a WebSocket client needs execute-api:ManageConnections on "{api}/ws/*/@connections/*": connection ids are only known at run time; the grant is limited to this API\'s ws stage.',
            appliesTo: [
              { regex: '/^Resource::arn:<AWS::Partition>:execute-api:.*\\/ws\\/\\*\\/@connections\\/\\*$/g' },
            ],
          },
        ],
        true,
      );
    }
    NagSuppressions.addResourceSuppressions(
      this.mailSenderFunction.role as iam.IRole,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'Query grants include the data table\'s indexes (table ARN + "/index/*"), as for every function that queries.',
          appliesTo: [{ regex: '/^Resource::<Table[A-Za-z0-9]+\\.Arn>\\/index\\/\\*$/g' }],
        },
      ],
      true,
    );
    NagSuppressions.addResourceSuppressions(
      this.rotationFunction.role as iam.IRole,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'secretsmanager:GetRandomPassword has no resource to scope to (IAM allows only "*"); the rotation grants CDK adds are otherwise on the origin secret alone.',
          appliesTo: ['Resource::*'],
        },
      ],
      true,
    );
    // BucketDeployment's provider Lambda is a CDK-owned singleton at stack level.
    const deployProvider = this.node.children.find((child) =>
      child.node.id.startsWith('Custom::CDKBucketDeployment'),
    );
    if (deployProvider) {
      NagSuppressions.addResourceSuppressions(
        deployProvider,
        [
          {
            id: 'AwsSolutions-IAM4',
            reason:
              'CDK BucketDeployment provider (deploy-time only, never on a request path) uses AWSLambdaBasicExecutionRole for its own logs; its role is created by aws-cdk-lib.',
            appliesTo: [
              'Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole',
            ],
          },
          {
            id: 'AwsSolutions-IAM5',
            reason:
              'CDK BucketDeployment provider copies the web build from the CDK asset bucket into the site bucket (object wildcards on those two buckets) and invalidates the distribution; the statements are generated by aws-cdk-lib.',
          },
          {
            id: 'AwsSolutions-L1',
            reason: 'The BucketDeployment provider runtime is chosen by aws-cdk-lib, not by this stack.',
          },
        ],
        true,
      );
    }
  }
}

/** A function's description: what it serves. */
const describe = (plan: FunctionPlan): string => {
  const text =
    plan.kind === 'http'
      ? `Curbside ${plan.area}: ${plan.routes.map(routeKeyOf).join(', ')}`
      : plan.kind === 'ws'
        ? `Curbside live connection: ${Object.keys(WS_ROUTES as Record<WsRouteKey, string>).join(', ')}`
        : `Curbside schedules: ${plan.schedules.map((s) => s.name).join(', ')}`;
  // Lambda descriptions hold at most 256 characters.
  return text.length > 256 ? `${text.slice(0, 253)}...` : text;
};
