import { fileURLToPath } from 'node:url';
import { routeList, schedules } from '@curbside/api';
import { type HandlerModule, handlerModules, WS_ROUTES } from '@curbside/functions/handlers';
import { tableDefinition } from '@curbside/store/table';
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration, WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { functionsDist as defaultFunctionsDist } from './bundles';
import { bindTable, bindWebSocketManagement, HandlerFunction, type TableAccess } from './handler-function';
import { Site } from './site';

const repoPath = (relative: string) => fileURLToPath(new URL(`../../${relative}`, import.meta.url));

export interface CurbsideStackProps extends StackProps {
  /** Bundles from `functions/build.ts`, one folder per handler id. Default `functions/dist`. */
  functionsDist?: string;
  /** The built web app. Default `web/dist`. */
  webDist?: string;
}

/**
 * Least privilege on the table: the health check only reads one key. Every
 * other handler gets read/write for now (most of them write: sessions, login
 * throttling, queue changes, connection rows); narrow per route when the
 * route table says which routes only read.
 */
const tableAccessOf = (module: HandlerModule): TableAccess =>
  module.id === 'http-health' ? 'read' : 'readWrite';

/** One JSON line per HTTP API request (no cookies, no bodies). */
const HTTP_ACCESS_LOG = {
  requestId: '$context.requestId',
  time: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  routeKey: '$context.routeKey',
  path: '$context.path',
  status: '$context.status',
  latencyMs: '$context.responseLatency',
  integrationLatencyMs: '$context.integrationLatency',
  integrationStatus: '$context.integrationStatus',
  integrationError: '$context.integrationErrorMessage',
  responseLength: '$context.responseLength',
};

/** Stage throttling: far above a school's rush, low enough to cap a runaway client's bill. */
const THROTTLE = { rateLimit: 500, burstLimit: 1000 };

/**
 * Curbside in AWS: one DynamoDB table, one Lambda per handler module, an HTTP
 * API with one route per entry of the route table, a WebSocket API, the
 * EventBridge schedules, and CloudFront + S3 in front of it all.
 */
export class CurbsideStack extends Stack {
  readonly table: dynamodb.Table;
  readonly functions: ReadonlyMap<string, lambda.Function>;
  readonly httpApi: apigw.HttpApi;
  readonly webSocketApi: apigw.WebSocketApi;
  readonly webSocketStage: apigw.WebSocketStage;
  readonly site: Site;

  constructor(scope: Construct, id: string, props: CurbsideStackProps = {}) {
    super(scope, id, props);
    const functionsDist = props.functionsDist ?? defaultFunctionsDist;
    const webDist = props.webDist ?? repoPath('web/dist');

    // --- The table, from the one definition the laptop runtime also uses.
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

    // --- One function per handler module.
    const functions = new Map<string, lambda.Function>();
    for (const module of handlerModules()) {
      const handler = new HandlerFunction(this, module.id, {
        bundleDir: `${functionsDist}/${module.id}`,
        timeout: module.id.startsWith('scheduled-') ? Duration.minutes(1) : Duration.seconds(10),
      });
      bindTable(handler.fn, this.table, tableAccessOf(module));
      functions.set(module.id, handler.fn);
    }
    this.functions = functions;
    const fn = (moduleId: string): lambda.Function => {
      const found = functions.get(moduleId);
      if (!found) throw new Error(`No handler module ${moduleId} in handlerModules()`);
      return found;
    };

    // --- WebSocket API: $connect / $disconnect / $default, stage `ws`.
    const wsFunction = (routeKey: keyof typeof WS_ROUTES) => fn(`ws-${WS_ROUTES[routeKey]}`);
    const wsIntegration = (routeKey: keyof typeof WS_ROUTES) =>
      new WebSocketLambdaIntegration(`${WS_ROUTES[routeKey]}-integration`, wsFunction(routeKey));
    this.webSocketApi = new apigw.WebSocketApi(this, 'WebSocketApi', {
      description: 'Curbside live events',
      connectRouteOptions: { integration: wsIntegration('$connect') },
      disconnectRouteOptions: { integration: wsIntegration('$disconnect') },
      defaultRouteOptions: { integration: wsIntegration('$default') },
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

    // --- HTTP API: one route per entry of the route table, each to its own function.
    this.httpApi = new apigw.HttpApi(this, 'HttpApi', {
      description: 'Curbside HTTP API (reached through CloudFront at /api/*)',
      createDefaultStage: false,
    });
    const httpStage = new apigw.HttpStage(this, 'HttpStage', {
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
    for (const route of routeList) {
      const handler = fn(`http-${route.name}`);
      new apigw.HttpRoute(this.httpApi, `Route-${route.name}`, {
        httpApi: this.httpApi,
        routeKey: apigw.HttpRouteKey.with(route.path, apigw.HttpMethod[route.method]),
        integration: new HttpLambdaIntegration(`Integration-${route.name}`, handler, {
          payloadFormatVersion: apigw.PayloadFormatVersion.VERSION_2_0,
        }),
      });
      bindWebSocketManagement(handler, this.webSocketStage);
    }
    bindWebSocketManagement(wsFunction('$default'), this.webSocketStage);

    // --- Schedules.
    for (const schedule of schedules) {
      new events.Rule(this, `Schedule-${schedule.name}`, {
        description: `Runs ${schedule.name} every ${schedule.everyMinutes} minute(s)`,
        schedule: events.Schedule.rate(Duration.minutes(schedule.everyMinutes)),
        // A missed tick is made up by the next one.
        targets: [new targets.LambdaFunction(fn(`scheduled-${schedule.name}`), { retryAttempts: 0 })],
      });
      bindWebSocketManagement(fn(`scheduled-${schedule.name}`), this.webSocketStage);
    }

    // --- CloudFront + S3.
    const domainName: string | undefined = this.node.tryGetContext('curbside:domainName');
    const certificateArn: string | undefined = this.node.tryGetContext('curbside:certificateArn');
    this.site = new Site(this, 'Site', {
      httpApiId: this.httpApi.apiId,
      webSocketApiId: this.webSocketApi.apiId,
      webDist,
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
    // Mutations must carry the site's Origin; behind CloudFront the request's
    // Host is the execute-api host, so the handlers are told the site origin.
    const allowedOrigins = [`https://${this.site.distribution.distributionDomainName}`];
    if (domainName) allowedOrigins.push(`https://${domainName}`);
    for (const route of routeList) {
      fn(`http-${route.name}`)
        .addEnvironment('ALLOWED_ORIGINS', allowedOrigins.join(','))
        // /api/* reaches the handlers through CloudFront, whose function sets the visitor's address.
        .addEnvironment('TRUST_VIEWER_ADDRESS', '1');
    }

    new CfnOutput(this, 'SiteUrl', { value: siteUrl, description: 'The web app' });
    new CfnOutput(this, 'HttpApiUrl', { value: httpStage.url, description: 'The HTTP API (direct)' });
    new CfnOutput(this, 'WebSocketUrl', {
      value: `${siteUrl.replace(/^https/, 'wss')}/ws`,
      description: 'The live connection as browsers open it (through CloudFront)',
    });
    new CfnOutput(this, 'WebSocketApiUrl', {
      value: this.webSocketStage.url,
      description: 'The WebSocket API stage (direct)',
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
            'The WebSocket API is open on purpose: anonymous screens (bus map, bus driver) join the public channel. $connect reads the session cookie and joins staff and parents to their own channels only; no other route lets a client choose a channel.',
        },
      ],
      true,
    );
    if (!wsAccessLogs) {
      NagSuppressions.addResourceSuppressions(this.webSocketStage, [
        {
          id: 'AwsSolutions-APIG1',
          reason:
            'WebSocket stage logging needs the account-wide API Gateway CloudWatch role (AWS::ApiGateway::Account), which this stack does not own. Set context curbside:wsAccessLogs=true in accounts where that role is configured; connection events are logged by the ws-* functions meanwhile.',
        },
      ]);
    }
    for (const [id, fn] of this.functions) {
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
      const role = fn.role;
      if (!role) throw new Error(`Function ${id} has no role`);
      NagSuppressions.addResourceSuppressions(
        role,
        [
          {
            id: 'AwsSolutions-IAM5',
            reason:
              'Table grants include the table\'s indexes (table ARN + "/index/*"): every query path of the store uses gsi1/gsi2, listed in its access-pattern table.',
            appliesTo: [{ regex: '/^Resource::<Table[A-Za-z0-9]+\\.Arn>\\/index\\/\\*$/g' }],
          },
          {
            id: 'AwsSolutions-IAM5',
            reason:
              'Posting to a WebSocket client needs execute-api:ManageConnections on "{api}/ws/*/@connections/*": connection ids are only known at run time; the grant is limited to this API\'s ws stage.',
            appliesTo: [
              { regex: '/^Resource::arn:<AWS::Partition>:execute-api:.*\\/ws\\/\\*\\/@connections\\/\\*$/g' },
            ],
          },
        ],
        true,
      );
    }
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
