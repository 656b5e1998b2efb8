import type { FunctionPlan } from '@curbside/api';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { StackPart } from './part';

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

/** Stage throttling (both APIs): far above a school's rush, low enough to cap a runaway client's bill. */
export const THROTTLE = { rateLimit: 500, burstLimit: 1000 };

/** Neither API has an API Gateway authorizer: the handlers authorize. */
export const NO_AUTHORIZER_FINDING = {
  id: 'AwsSolutions-APIG4',
  reason:
    'Authorization happens in the handlers: each route declares its access in the route table (public, signed-in, parent, minimum staff role) and the handler checks the HttpOnly session cookie against the server-side session record. API Gateway authorizers cannot read that session store without a second Lambda per request.',
};

export interface HttpApiPartProps {
  /** The route table's function plan: its HTTP entries carry the routes. */
  plans: readonly FunctionPlan[];
  /** The function of a plan id. */
  functionOf: (planId: string) => lambda.Function;
}

/**
 * The HTTP API (reached through CloudFront at /api/*): one route per entry of the route table;
 * the routes of an area share its function's one integration and one invoke permission (a
 * route costs one resource); a stage whose access log names the route, never the path.
 */
export class HttpApiPart extends StackPart {
  readonly api: apigw.HttpApi;

  constructor(scope: Construct, id: string, props: HttpApiPartProps) {
    super(scope, id);
    this.api = new apigw.HttpApi(this, 'HttpApi', {
      description: 'Curbside HTTP API (reached through CloudFront at /api/*)',
      createDefaultStage: false,
    });
    new apigw.HttpStage(this, 'HttpStage', {
      httpApi: this.api,
      autoDeploy: true,
      throttle: THROTTLE,
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(
          new logs.LogGroup(this, 'HttpAccessLogs', { retention: logs.RetentionDays.ONE_MONTH }),
        ),
        format: AccessLogFormat.custom(JSON.stringify(HTTP_ACCESS_LOG)),
      },
    });
    for (const plan of props.plans) {
      if (plan.kind !== 'http') continue;
      const integration = new HttpLambdaIntegration(`Integration-${plan.area}`, props.functionOf(plan.id), {
        payloadFormatVersion: apigw.PayloadFormatVersion.VERSION_2_0,
        scopePermissionToRoute: false,
      });
      for (const route of plan.routes) {
        new apigw.HttpRoute(this.api, `Route-${route.name}`, {
          httpApi: this.api,
          routeKey: apigw.HttpRouteKey.with(route.path, apigw.HttpMethod[route.method]),
          integration,
        });
      }
    }
    NagSuppressions.addResourceSuppressions(this.api, [NO_AUTHORIZER_FINDING], true);
  }
}
