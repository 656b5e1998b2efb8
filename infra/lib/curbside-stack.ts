import { fileURLToPath } from 'node:url';
import {
  functionPlan,
  IMPORT_JOBS,
  MAIL_SENDER,
  ORIGIN_SECRET_ROTATION,
  parseOrigins,
  type RouteDefinition,
} from '@curbside/api';
import { type CfnElement, CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { functionsDist as defaultFunctionsDist } from './bundles';
import { Clever } from './clever';
import { Functions } from './functions';
import { bindEdge } from './handler-function';
import { HttpApiPart } from './http-api';
import { Mail } from './mail';
import { Operations } from './operations';
import { partlessLogicalId } from './part';
import { Rotation } from './rotation';
import { Schedules } from './schedules';
import { Site } from './site';
import { Tables } from './tables';
import { WebSocketApiPart } from './websocket-api';

export { HTTP_ACCESS_LOG } from './http-api';

const repoPath = (relative: string) => fileURLToPath(new URL(`../../${relative}`, import.meta.url));

export interface CurbsideStackProps extends StackProps {
  /** Bundles from `functions/build.ts`, one folder per function id. Default `functions/dist`. */
  functionsDist?: string;
  /** The built web app. Default `web/dist`. */
  webDist?: string;
  /** The route table (default `routeList`); a test passes another to measure what a route costs. */
  routes?: readonly RouteDefinition[];
}

/** The deployment's choices, from CDK context (cdk.json or `-c`). */
const settingsOf = (scope: Construct) => {
  const context = <T>(key: string): T | undefined => scope.node.tryGetContext(`curbside:${key}`);
  const domainName = context<string>('domainName');
  return {
    domainName,
    certificateArn: context<string>('certificateArn'),
    mapOrigins: context<string>('mapOrigins'),
    wsAccessLogs: ['true', true].includes(context<string | boolean>('wsAccessLogs') as string),
    mailFrom: context<string>('mailFrom') ?? `Curbside <no-reply@${domainName ?? 'curbside.example'}>`,
    mailSendRate: Number(context<string | number>('mailSendRate') ?? 10),
    cleverClientId: context<string>('cleverClientId'),
  };
};

/**
 * Curbside in AWS: the data table and the live-connection table, a few
 * functions from the route table's function plan (one per area, the
 * WebSocket routes, the schedules), an HTTP API with one route per entry of
 * the route table, a WebSocket API, the EventBridge schedules, and CloudFront
 * + S3 in front of it all: nothing reaches a function but through CloudFront.
 *
 * Each of these is a part (`StackPart`): a construct whose resources keep the
 * logical IDs the stack gave them before it had parts (`allocateLogicalId`).
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
  /** Alarms, their SNS topic and the dashboard (issue 55). */
  readonly operations: Operations;

  constructor(scope: Construct, id: string, props: CurbsideStackProps = {}) {
    super(scope, id, props);
    const functionsDist = props.functionsDist ?? defaultFunctionsDist;
    const webDist = props.webDist ?? repoPath('web/dist');
    const plans = functionPlan(props.routes);
    const settings = settingsOf(this);

    const tables = new Tables(this, 'Tables');
    this.table = tables.data;
    this.connectionTable = tables.connections;

    // The secret CloudFront adds to every request it forwards to the APIs.
    this.originSecret = new secretsmanager.Secret(this, 'OriginSecret', {
      description:
        'Curbside: CloudFront sends this to the APIs; the functions serve only requests that carry it',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });

    const functions = new Functions(this, 'Functions', { plans, functionsDist, tables });
    const fn = (planId: string) => functions.fn(planId);
    this.functions = functions.byPlan;
    this.importJobsFunction = functions.importJobs.fn;

    const webSocket = new WebSocketApiPart(this, 'WebSocket', {
      handler: fn('ws'),
      // Deactivating people (an import) ends their sign-ins and closes their live connections.
      publishers: [
        ...plans.filter((plan) => plan.access.publishes).map((plan) => fn(plan.id)),
        this.importJobsFunction,
      ],
      accessLogs: settings.wsAccessLogs,
    });
    this.webSocketApi = webSocket.api;
    this.webSocketStage = webSocket.stage;

    this.httpApi = new HttpApiPart(this, 'Http', { plans, functionOf: fn }).api;
    const schedules = new Schedules(this, 'Schedules', { plans, functionOf: fn });

    // --- CloudFront + S3.
    const { domainName, certificateArn, mapOrigins } = settings;
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

    const mail = new Mail(this, 'Mail', {
      plans,
      functionOf: fn,
      functionsDist,
      tables,
      from: settings.mailFrom,
      sendRate: settings.mailSendRate,
    });
    this.mailSenderFunction = mail.sender.fn;

    if (settings.cleverClientId) {
      const clever = new Clever(this, 'Clever', {
        clientId: settings.cleverClientId,
        auth: fn('http-auth'),
        tokenReaders: [this.importJobsFunction, ...functions.importStarters(plans)],
      });
      this.cleverClientSecret = clever.clientSecret;
      this.cleverDistrictTokens = clever.districtTokens;
    }

    const rotation = new Rotation(this, 'Rotation', {
      secret: this.originSecret,
      distribution: this.site.distribution,
      functionsDist,
    });
    this.rotationFunction = rotation.fn;

    // --- Alarms on what wakes someone, to one SNS topic (stack parameter AlarmEmail), and a dashboard.
    this.operations = new Operations(this, 'Operations', {
      functions: new Map([
        ...this.functions,
        [IMPORT_JOBS.id, this.importJobsFunction],
        [MAIL_SENDER.id, this.mailSenderFunction],
        [ORIGIN_SECRET_ROTATION.id, this.rotationFunction],
      ]),
      httpApi: this.httpApi,
      table: this.table,
      autoEndRule: schedules.rule('end-sessions'),
      deadLetterQueues: new Map([
        [IMPORT_JOBS.id, functions.importJobs.deadLetterQueue],
        [MAIL_SENDER.id, mail.sender.deadLetterQueue],
        [ORIGIN_SECRET_ROTATION.id, rotation.deadLetterQueue],
      ]),
    });

    new CfnOutput(this, 'SiteUrl', { value: siteUrl, description: 'The web app' });
    new CfnOutput(this, 'WebSocketUrl', {
      value: `${siteUrl.replace(/^https/, 'wss')}/ws`,
      description: 'The live connection as browsers open it (through CloudFront)',
    });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });

    this.suppressDeploymentFindings();
  }

  /** A part's resources keep the logical IDs they had before the stack had parts. */
  protected override allocateLogicalId(element: CfnElement): string {
    return partlessLogicalId(this, element) ?? super.allocateLogicalId(element);
  }

  /** BucketDeployment's provider Lambda is a CDK-owned singleton at stack level. */
  private suppressDeploymentFindings() {
    const deployProvider = this.node.children.find((child) =>
      child.node.id.startsWith('Custom::CDKBucketDeployment'),
    );
    if (!deployProvider) return;
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
