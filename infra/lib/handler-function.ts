import { Duration } from 'aws-cdk-lib';
import type { WebSocketStage } from 'aws-cdk-lib/aws-apigatewayv2';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

export interface HandlerFunctionProps {
  /** Folder holding the esbuild bundle `index.mjs` (`functions/dist/{id}`). */
  bundleDir: string;
  /** Lambda timeout; the HTTP API gives up on an integration after 30 s anyway. */
  timeout?: Duration;
}

/**
 * One Lambda handler as bundled by `functions/build.ts`: Node.js 22 on arm64,
 * its own log group with a retention, and its own role that may write to
 * that log group and nothing else until a `bind*` helper adds a grant.
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
      description: `Runs the ${id} handler`,
    });
    this.logGroup.grantWrite(role);
    this.fn = new lambda.Function(this, 'Function', {
      code: lambda.Code.fromAsset(props.bundleDir),
      handler: 'index.handler',
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: 512,
      timeout: props.timeout ?? Duration.seconds(10),
      role,
      logGroup: this.logGroup,
      description: `Curbside ${id}`,
    });
  }
}

/** What a handler may do with the table. */
export type TableAccess = 'read' | 'readWrite';

/**
 * Points a function at the table (TABLE_NAME) and grants exactly the access
 * asked for, in one call, so the variable and the permission cannot drift.
 */
export const bindTable = (fn: lambda.Function, table: ITable, access: TableAccess): void => {
  fn.addEnvironment('TABLE_NAME', table.tableName);
  if (access === 'read') table.grantReadData(fn);
  else table.grantReadWriteData(fn);
};

/**
 * Lets a function push to WebSocket clients: sets WS_MANAGEMENT_ENDPOINT to
 * the API's own management endpoint (`https://{api}.execute-api.{region}.{suffix}/ws`,
 * never CloudFront's domain) and grants `execute-api:ManageConnections` on
 * that stage's `@connections` only, in one call.
 */
export const bindWebSocketManagement = (fn: lambda.Function, stage: WebSocketStage): void => {
  fn.addEnvironment('WS_MANAGEMENT_ENDPOINT', stage.callbackUrl);
  stage.grantManagementApiAccess(fn);
};
