import type { FunctionAccess, TableAction } from '@curbside/api';
import { connectionTableDefinition, tableDefinition } from '@curbside/store/table';
import { Duration, Stack } from 'aws-cdk-lib';
import type { WebSocketStage } from 'aws-cdk-lib/aws-apigatewayv2';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

export interface HandlerFunctionProps {
  /** Folder holding the esbuild bundle `index.mjs` (`functions/dist/{id}`). */
  bundleDir: string;
  /** Lambda timeout; the HTTP API gives up on an integration after 30 s anyway. */
  timeout?: Duration;
  /** Lambda memory in MB (default 512). */
  memorySize?: number;
  /** What the function is for (its role's and the function's description). */
  description?: string;
  /** Invocations at once at most (default: the account's unreserved pool). */
  reservedConcurrentExecutions?: number;
}

/**
 * One Lambda function as bundled by `functions/build.ts`: Node.js 22 on
 * arm64, its own log group with a retention, and its own role that may write
 * to that log group and nothing else until a `bind*` helper adds a grant.
 * (An explicit role keeps the AWS managed AWSLambdaBasicExecutionRole, which
 * allows writing to every log group of the account, out of the stack.)
 */
export class HandlerFunction extends Construct {
  readonly fn: lambda.Function;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: HandlerFunctionProps) {
    super(scope, id);
    this.logGroup = new logs.LogGroup(this, 'Logs', { retention: logs.RetentionDays.ONE_MONTH });
    const role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Runs the Curbside ${id} function`,
    });
    this.logGroup.grantWrite(role);
    this.fn = new lambda.Function(this, 'Function', {
      code: lambda.Code.fromAsset(props.bundleDir),
      handler: 'index.handler',
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      role,
      logGroup: this.logGroup,
      description: props.description ?? `Curbside ${id}`,
      ...(props.reservedConcurrentExecutions === undefined
        ? {}
        : { reservedConcurrentExecutions: props.reservedConcurrentExecutions }),
    });
    NagSuppressions.addResourceSuppressions(
      this.fn,
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
}

/**
 * Grants exactly `actions` on a table (its indexes too where it has some and
 * Query is among them), never more: no Scan, no stream, no DescribeTable.
 */
const grantTableActions = (
  fn: lambda.Function,
  table: ITable,
  actions: readonly TableAction[],
  hasIndexes: boolean,
) => {
  if (actions.length === 0) return;
  const indexes = hasIndexes && actions.includes('Query') ? [`${table.tableArn}/index/*`] : [];
  fn.addToRolePolicy(
    new iam.PolicyStatement({
      actions: actions.map((action) => `dynamodb:${action}`),
      resources: [table.tableArn, ...indexes],
    }),
  );
};

/**
 * Points a function at its tables and grants exactly the actions of its
 * access (`FUNCTION_ACCESS` in packages/api), in one call, so the variables
 * and the permissions cannot drift: TABLE_NAME always; CONNECTION_TABLE_NAME
 * only where the function touches the live-connection table.
 */
export const bindTables = (
  fn: lambda.Function,
  access: FunctionAccess,
  tables: { data: ITable; connections: ITable },
): void => {
  fn.addEnvironment('TABLE_NAME', tables.data.tableName);
  grantTableActions(fn, tables.data, access.data, tableDefinition.globalSecondaryIndexes.length > 0);
  if (access.connections.length > 0) {
    fn.addEnvironment('CONNECTION_TABLE_NAME', tables.connections.tableName);
    grantTableActions(
      fn,
      tables.connections,
      access.connections,
      connectionTableDefinition.globalSecondaryIndexes.length > 0,
    );
  }
};

/**
 * Lets a function push to and close WebSocket clients: sets
 * WS_MANAGEMENT_ENDPOINT to the API's own management endpoint
 * (`https://{api}.execute-api.{region}.{suffix}/ws`, never CloudFront's
 * domain) and grants `execute-api:ManageConnections` on that stage's
 * `@connections` only, in one call.
 */
export const bindWebSocketManagement = (fn: lambda.Function, stage: WebSocketStage): void => {
  fn.addEnvironment('WS_MANAGEMENT_ENDPOINT', stage.callbackUrl);
  stage.grantManagementApiAccess(fn);
};

/** The address of a sender such as `Curbside <no-reply@school.example>` (`no-reply@school.example`). */
export const senderAddress = (from: string): string => {
  const address = (/<([^<>]+)>\s*$/.exec(from)?.[1] ?? from).trim();
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(address)) throw new Error(`Not a sender address: ${from}`);
  return address;
};

/**
 * Lets a function send email through Amazon SES (v2 SendEmail): sets
 * MAIL_FROM and grants `ses:SendEmail` on that sender's identities only (the
 * address, or its verified domain), with the From address pinned by
 * condition, in one call.
 */
export const bindMail = (fn: lambda.Function, from: string): void => {
  const address = senderAddress(from);
  const domain = address.slice(address.indexOf('@') + 1);
  const identity = (name: string) =>
    Stack.of(fn).formatArn({ service: 'ses', resource: 'identity', resourceName: name });
  fn.addEnvironment('MAIL_FROM', from);
  fn.addToRolePolicy(
    new iam.PolicyStatement({
      actions: ['ses:SendEmail'],
      resources: [identity(address), identity(domain)],
      conditions: { StringEquals: { 'ses:FromAddress': address } },
    }),
  );
};

/**
 * Puts a function behind CloudFront: ORIGIN_SECRET_ARN (the secret CloudFront
 * adds to every request it forwards, which the function verifies first) with
 * read access to that secret's value only; the site's origins for the Origin
 * checks; and, for HTTP functions, trust in the visitor address CloudFront
 * stamps (only ever on verified requests).
 */
export const bindEdge = (
  fn: lambda.Function,
  {
    secret,
    allowedOrigins,
    trustViewerAddress,
  }: { secret: ISecret; allowedOrigins: string; trustViewerAddress: boolean },
): void => {
  fn.addEnvironment('ORIGIN_SECRET_ARN', secret.secretArn);
  fn.addEnvironment('ALLOWED_ORIGINS', allowedOrigins);
  if (trustViewerAddress) fn.addEnvironment('TRUST_VIEWER_ADDRESS', '1');
  fn.addToRolePolicy(
    new iam.PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [secret.secretArn] }),
  );
};

/** The ARN of a CloudFront distribution (a global resource: no region). */
export const distributionArn = (scope: Construct, distributionId: string) =>
  Stack.of(scope).formatArn({
    service: 'cloudfront',
    region: '',
    resource: 'distribution',
    resourceName: distributionId,
  });
