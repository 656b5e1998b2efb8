import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { bindWebSocketManagement } from './handler-function';
import { NO_AUTHORIZER_FINDING, THROTTLE } from './http-api';
import { StackPart } from './part';

export interface WebSocketApiPartProps {
  /** The `ws` function: it serves $connect, $disconnect and $default. */
  handler: lambda.Function;
  /** The functions that push to or close live connections (management endpoint and grant). */
  publishers: readonly lambda.Function[];
  /** Stage access logs (context `curbside:wsAccessLogs`): they need the account's API Gateway role. */
  accessLogs: boolean;
}

/** The WebSocket API: $connect / $disconnect / $default, all served by the ws function, stage `ws`. */
export class WebSocketApiPart extends StackPart {
  readonly api: apigw.WebSocketApi;
  readonly stage: apigw.WebSocketStage;

  constructor(scope: Construct, id: string, props: WebSocketApiPartProps) {
    super(scope, id);
    const integration = new WebSocketLambdaIntegration('WsIntegration', props.handler);
    this.api = new apigw.WebSocketApi(this, 'WebSocketApi', {
      description: 'Curbside live events',
      connectRouteOptions: { integration },
      disconnectRouteOptions: { integration },
      defaultRouteOptions: { integration },
    });
    this.stage = new apigw.WebSocketStage(this, 'WebSocketStage', {
      webSocketApi: this.api,
      stageName: 'ws',
      autoDeploy: true,
      throttle: THROTTLE,
      ...(props.accessLogs
        ? {
            accessLogSettings: {
              destination: new apigw.LogGroupLogDestination(
                new logs.LogGroup(this, 'WebSocketAccessLogs', { retention: logs.RetentionDays.ONE_MONTH }),
              ),
            },
          }
        : {}),
    });
    for (const publisher of props.publishers) bindWebSocketManagement(publisher, this.stage);

    NagSuppressions.addResourceSuppressions(
      this.api,
      [
        {
          ...NO_AUTHORIZER_FINDING,
          reason:
            'The WebSocket API is open on purpose: anonymous screens (bus map, bus driver) join the public channel. $connect checks the origin secret and the Origin, reads the session cookie and joins staff and parents to their own channels only; no other route lets a client choose a channel.',
        },
      ],
      true,
    );
    if (!props.accessLogs) {
      NagSuppressions.addResourceSuppressions(this.stage, [
        {
          id: 'AwsSolutions-APIG1',
          reason:
            'WebSocket stage logging needs the account-wide API Gateway CloudWatch role (AWS::ApiGateway::Account), which this stack does not own. Set context curbside:wsAccessLogs=true in accounts where that role is configured; connection events are logged by the ws function meanwhile.',
        },
      ]);
    }
  }
}
