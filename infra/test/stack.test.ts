import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  FUNCTION_ACCESS,
  functionPlan,
  HASHED_MAX_AGE_SECONDS,
  IMPORT_JOBS,
  MAIL_SENDER,
  ORIGIN_SECRET_HEADER,
  type RouteDefinition,
  routeKeyOf,
  routeList,
  SITE_CACHE_CONTROL,
  schedules,
  securityHeaders,
  VIEWER_ADDRESS_HEADER,
  WS_ROUTES,
} from '@curbside/api';
import { connectionTableDefinition, tableDefinition } from '@curbside/store/table';
import { App, type AppProps, Aspects, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import type { CfnRole } from 'aws-cdk-lib/aws-iam';
import type { CfnFunction, Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { type CfnSecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureFunctionBundles } from '../lib/bundles';
import { CurbsideStack, HTTP_ACCESS_LOG } from '../lib/curbside-stack';
import { Site } from '../lib/site';

type Resources = Record<
  string,
  { Type: string; Properties: any; DeletionPolicy?: string; Metadata?: any; Condition?: string }
>;

/** Managed policy ids (same in every account). */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

let webDist: string;
let app: App;
let stack: CurbsideStack;
let template: Template;
let resources: Resources;

/**
 * Where this file's apps synthesize (their function bundles and web files copied as assets,
 * about 30 MB each), removed at the end: without an outdir, each synthesis left a `cdk.out…`
 * folder in the system's temporary directory, some 450 MB a test run.
 */
const outdirs = mkdtempSync(join(tmpdir(), 'curbside-cdk-test-'));
const testApp = (props: AppProps = {}) => new App({ outdir: mkdtempSync(join(outdirs, 'app-')), ...props });

const synth = (routes?: readonly RouteDefinition[]) => {
  const built = testApp();
  const curbside = new CurbsideStack(built, 'Curbside', { webDist, ...(routes ? { routes } : {}) });
  Aspects.of(built).add(new AwsSolutionsChecks());
  return { app: built, stack: curbside, template: Template.fromStack(curbside) };
};

/** The stack is synthesized once for the whole file (with cdk-nag, as in bin/app.ts). */
beforeAll(() => {
  ensureFunctionBundles();
  webDist = mkdtempSync(join(tmpdir(), 'curbside-web-'));
  mkdirSync(join(webDist, 'assets'));
  writeFileSync(join(webDist, 'index.html'), '<!doctype html><script src="/assets/app-1.js"></script>');
  writeFileSync(join(webDist, 'assets', 'app-1.js'), 'console.log(1)');
  // The build's precompressed copies (web/precompress.ts), for the laptop only.
  writeFileSync(join(webDist, 'assets', 'app-1.js.br'), 'brotli');
  writeFileSync(join(webDist, 'assets', 'app-1.js.gz'), 'gzip');
  writeFileSync(join(webDist, 'index.html.br'), 'brotli');
  ({ app, stack, template } = synth());
  resources = template.toJSON().Resources;
}, 180_000);

afterAll(() => {
  if (webDist) rmSync(webDist, { recursive: true, force: true });
  rmSync(outdirs, { recursive: true, force: true });
});

const logicalId = (planId: string): string => {
  const fn =
    planId === IMPORT_JOBS.id
      ? stack.importJobsFunction
      : planId === MAIL_SENDER.id
        ? stack.mailSenderFunction
        : stack.functions.get(planId);
  if (!fn) throw new Error(`no function ${planId}`);
  return stack.getLogicalId(fn.node.defaultChild as CfnFunction);
};
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const only = <T>(items: T[]): T => {
  expect(items).toHaveLength(1);
  return items[0] as T;
};
const apiLogicalId = (protocol: 'HTTP' | 'WEBSOCKET') =>
  only(ofType('AWS::ApiGatewayV2::Api').filter(([, r]) => r.Properties.ProtocolType === protocol))[0];
const tableLogicalId = (withPitr: boolean) =>
  only(
    ofType('AWS::DynamoDB::Table').filter(
      ([, t]) =>
        (t.Properties.PointInTimeRecoverySpecification?.PointInTimeRecoveryEnabled === true) === withPitr,
    ),
  )[0];
/** `integrations/{Ref}` → the integration's logical id. */
const integrationOf = (route: { Properties: any }): string => route.Properties.Target['Fn::Join'][1][1].Ref;
/** The Lambda function an integration invokes. */
const functionOfIntegration = (integrationId: string): string => {
  const json = JSON.stringify(resources[integrationId]?.Properties.IntegrationUri);
  const match = /"Fn::GetAtt":\["([A-Za-z0-9]+)","Arn"\]/.exec(json);
  if (!match?.[1]) throw new Error(`integration ${integrationId} has no function: ${json}`);
  return match[1];
};
const statementsOfRole = (roleLogicalId: string): any[] =>
  ofType('AWS::IAM::Policy')
    .filter(([, p]) => JSON.stringify(p.Properties.Roles) === JSON.stringify([{ Ref: roleLogicalId }]))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement)
    .filter((statement: any) => statement.Effect === 'Allow');
const roleOf = (planId: string) => resources[logicalId(planId)]!.Properties.Role['Fn::GetAtt'][0] as string;
/** The actions a function's role allows on a resource whose JSON mentions `target`. */
const actionsOn = (planId: string, target: string): string[] =>
  statementsOfRole(roleOf(planId))
    .filter((s) => JSON.stringify(s.Resource).includes(target))
    .flatMap((s) => [s.Action].flat());
const environmentOf = (planId: string) => resources[logicalId(planId)]!.Properties.Environment.Variables;

describe('tables', () => {
  it('the data table has the keys, indexes and TTL of its one definition, on demand, with PITR, retained', () => {
    const allKeys = [
      tableDefinition.partitionKey,
      tableDefinition.sortKey,
      ...tableDefinition.globalSecondaryIndexes.flatMap((index) => [index.partitionKey, index.sortKey]),
    ];
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: {
        KeySchema: [
          { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' },
          { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' },
        ],
        AttributeDefinitions: Match.arrayEquals(
          allKeys.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
        ),
        GlobalSecondaryIndexes: tableDefinition.globalSecondaryIndexes.map((index) => ({
          IndexName: index.indexName,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
        TimeToLiveSpecification: { AttributeName: tableDefinition.ttlAttribute, Enabled: true },
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        TableName: Match.absent(),
      },
    });
  });

  it('live connections have their own table, from its definition: TTL, on demand, no backups', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 2);
    const table = resources[tableLogicalId(false)]!;
    expect(table.Properties).toMatchObject({
      KeySchema: [
        { AttributeName: connectionTableDefinition.partitionKey, KeyType: 'HASH' },
        { AttributeName: connectionTableDefinition.sortKey, KeyType: 'RANGE' },
      ],
      TimeToLiveSpecification: { AttributeName: connectionTableDefinition.ttlAttribute, Enabled: true },
      BillingMode: 'PAY_PER_REQUEST',
    });
    expect(table.Properties.GlobalSecondaryIndexes).toBeUndefined();
  });
});

describe('functions', () => {
  const plans = functionPlan();

  it('one per area with routes, one for the WebSocket routes, one for the schedules (and the secret rotation, the import jobs, the mail sender)', () => {
    expect([...stack.functions.keys()].sort()).toEqual(plans.map((p) => p.id).sort());
    expect(plans.map((p) => p.id)).toEqual(
      expect.arrayContaining([
        'http-auth',
        'http-carLine',
        'http-teacher',
        'http-admin',
        'http-parent',
        'ws',
        'scheduled',
      ]),
    );
    // + rotation + import jobs + mail sender + BucketDeployment
    template.resourceCountIs('AWS::Lambda::Function', plans.length + 4);
  });

  it('the import-jobs function: 15 minutes, invoked asynchronously by the import routes, the schedules and itself, never retried by Lambda', () => {
    const jobs = logicalId(IMPORT_JOBS.id);
    const fn = resources[jobs]!.Properties;
    expect(fn.Timeout).toBe(900);
    expect(fn.MemorySize).toBe(IMPORT_JOBS.access.memoryMb);
    const [, config] = only(
      ofType('AWS::Lambda::EventInvokeConfig').filter(
        ([, c]) => JSON.stringify(c.Properties.FunctionName) === JSON.stringify({ Ref: jobs }),
      ),
    );
    expect(config.Properties.MaximumRetryAttempts).toBe(0);
    const invokers = ofType('AWS::IAM::Policy').filter(([, p]) =>
      p.Properties.PolicyDocument.Statement.some(
        (s: any) =>
          [s.Action].flat().includes('lambda:InvokeFunction') && JSON.stringify(s.Resource).includes(jobs),
      ),
    );
    const roles = invokers.flatMap(([, p]) => p.Properties.Roles.map((r: any) => r.Ref as string));
    expect(roles.sort()).toEqual(['http-sis', 'scheduled', IMPORT_JOBS.id].map(roleOf).sort());
    expect(environmentOf('http-sis').IMPORT_JOBS_FUNCTION).toEqual({ Ref: jobs });
    expect(environmentOf('scheduled').IMPORT_JOBS_FUNCTION).toEqual({ Ref: jobs });
  });

  it.each(plans.map((p) => [p.id, p] as const))(
    '%s: Node.js 22 on arm64, its memory, TABLE_NAME, a log group with retention',
    (id, plan) => {
      const fn = resources[logicalId(id)]!.Properties;
      expect(fn.Runtime).toBe('nodejs22.x');
      expect(fn.Architectures).toEqual(['arm64']);
      expect(fn.Handler).toBe('index.handler');
      expect(fn.MemorySize).toBe(plan.access.memoryMb);
      expect(fn.Timeout).toBe(plan.access.timeoutSeconds);
      expect(fn.Environment.Variables.TABLE_NAME).toEqual({ Ref: tableLogicalId(true) });
      expect(resources[fn.LoggingConfig.LogGroup.Ref]!.Properties.RetentionInDays).toBeGreaterThan(0);
    },
  );

  it('the auth function has the memory scrypt at N=2^17 needs (a full vCPU)', () => {
    expect(resources[logicalId('http-auth')]!.Properties.MemorySize).toBeGreaterThanOrEqual(1769);
  });

  it.each(plans.map((p) => [p.id, p] as const))(
    '%s: exactly the table actions of its routes, on each table',
    (id, plan) => {
      const data = tableLogicalId(true);
      const connections = tableLogicalId(false);
      expect(actionsOn(id, `"${data}"`).sort()).toEqual(plan.access.data.map((a) => `dynamodb:${a}`).sort());
      expect(actionsOn(id, `"${connections}"`).sort()).toEqual(
        plan.access.connections.map((a) => `dynamodb:${a}`).sort(),
      );
      const env = environmentOf(id);
      if (plan.access.connections.length > 0) expect(env.CONNECTION_TABLE_NAME).toEqual({ Ref: connections });
      else expect(env.CONNECTION_TABLE_NAME).toBeUndefined();
      // No managed policies (AWSLambdaBasicExecutionRole would allow every log group of the account).
      expect(resources[roleOf(id)]!.Properties.ManagedPolicyArns).toBeUndefined();
    },
  );

  it('no policy of the stack allows a Scan, or any DynamoDB wildcard', () => {
    const actions = ofType('AWS::IAM::Policy')
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement)
      .flatMap((s: any) => [s.Action].flat());
    expect(actions.filter((a: string) => /^dynamodb:(Scan|\*|PartiQL)/.test(a))).toEqual([]);
    expect(actions.some((a: string) => a.startsWith('dynamodb:'))).toBe(true);
  });

  it('only the functions that publish get the management endpoint and ManageConnections, on the ws stage only', () => {
    const wsApi = apiLogicalId('WEBSOCKET');
    const publishers = plans.filter((p) => p.access.publishes).map((p) => p.id);
    expect(publishers.sort()).toEqual(
      [
        'http-admin',
        'http-auth',
        'http-bus',
        'http-carLine',
        'http-parent',
        'http-teacher',
        'scheduled',
        'ws',
      ].sort(),
    );
    // The import jobs end the sign-ins of the people they deactivate (closing their sockets).
    expect(JSON.stringify(environmentOf(IMPORT_JOBS.id).WS_MANAGEMENT_ENDPOINT)).toContain(
      `{"Ref":"${wsApi}"}`,
    );
    for (const plan of plans) {
      const endpoint = environmentOf(plan.id).WS_MANAGEMENT_ENDPOINT;
      const actions = statementsOfRole(roleOf(plan.id)).flatMap((s) => [s.Action].flat());
      if (plan.access.publishes) {
        expect(JSON.stringify(endpoint), plan.id).toContain(`{"Ref":"${wsApi}"}`);
        expect(actions, plan.id).toContain('execute-api:ManageConnections');
      } else {
        expect(endpoint, plan.id).toBeUndefined();
        expect(actions, plan.id).not.toContain('execute-api:ManageConnections');
      }
    }
    const grants = ofType('AWS::IAM::Policy')
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement)
      .filter((s: any) => s.Action === 'execute-api:ManageConnections');
    expect(grants.length).toBe(publishers.length + 1);
    for (const grant of grants)
      expect(JSON.stringify(grant.Resource)).toMatch(/"\/ws\/\*\/@connections\/\*"/);
  });

  it('only the mail sender gets MAIL_FROM and ses:SendEmail, on the sender identity only', () => {
    // No function of the route table sends: the email route queues a mail run for the sender.
    expect(plans.filter((p) => p.access.sendsEmail).map((p) => p.id)).toEqual([]);
    const sesGrantsOf = (planId: string) =>
      statementsOfRole(roleOf(planId)).filter((s) =>
        [s.Action].flat().some((a: string) => a.startsWith('ses:')),
      );
    const grant = only(sesGrantsOf(MAIL_SENDER.id));
    expect(grant.Action).toBe('ses:SendEmail');
    expect(grant.Condition).toEqual({ StringEquals: { 'ses:FromAddress': 'no-reply@curbside.example' } });
    const identities = JSON.stringify(grant.Resource);
    expect(identities).toContain(':identity/no-reply@curbside.example');
    expect(identities).toContain(':identity/curbside.example');
    expect(identities).not.toContain('*');
    expect(environmentOf(MAIL_SENDER.id).MAIL_FROM).toBe('Curbside <no-reply@curbside.example>');
    for (const id of [...plans.map((p) => p.id), IMPORT_JOBS.id]) {
      expect(environmentOf(id).MAIL_FROM, id).toBeUndefined();
      expect(sesGrantsOf(id), id).toEqual([]);
    }
    // Nor any other role or policy of the stack.
    const sesGrants = ofType('AWS::IAM::Policy')
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement)
      .filter((s: any) => [s.Action].flat().some((a: string) => a.startsWith('ses:')));
    expect(sesGrants).toEqual([grant]);
  });

  it('the mail sender: 15 minutes, one invocation at a time, started by the admin and auth functions and itself', () => {
    const sender = logicalId(MAIL_SENDER.id);
    const fn = resources[sender]!.Properties;
    expect(fn.Timeout).toBe(900);
    expect(fn.ReservedConcurrentExecutions).toBe(1);
    expect(fn.Environment.Variables.MAIL_SEND_RATE).toBe('10');
    const [, config] = only(
      ofType('AWS::Lambda::EventInvokeConfig').filter(
        ([, c]) => JSON.stringify(c.Properties.FunctionName) === JSON.stringify({ Ref: sender }),
      ),
    );
    expect(config.Properties.MaximumRetryAttempts).toBe(2);
    const invokers = ofType('AWS::IAM::Policy').filter(([, p]) =>
      p.Properties.PolicyDocument.Statement.some(
        (s: any) =>
          [s.Action].flat().includes('lambda:InvokeFunction') && JSON.stringify(s.Resource).includes(sender),
      ),
    );
    const roles = invokers.flatMap(([, p]) => p.Properties.Roles.map((r: any) => r.Ref as string));
    // The admin function emails invites; the auth function a parent's password-reset link (issue 50).
    expect(roles.sort()).toEqual(['http-admin', 'http-auth', MAIL_SENDER.id].map(roleOf).sort());
    expect(environmentOf('http-admin').MAIL_SENDER_FUNCTION).toEqual({ Ref: sender });
    expect(environmentOf('http-auth').MAIL_SENDER_FUNCTION).toEqual({ Ref: sender });
    // It reads and settles a run's messages; nothing else of the table, never the connections.
    expect(actionsOn(MAIL_SENDER.id, `"${tableLogicalId(true)}"`).sort()).toEqual(
      MAIL_SENDER.access.data.map((a) => `dynamodb:${a}`).sort(),
    );
    expect(environmentOf(MAIL_SENDER.id).CONNECTION_TABLE_NAME).toBeUndefined();
  });

  it('the sender comes from CDK context curbside:mailFrom, the pace from curbside:mailSendRate', () => {
    const app = testApp({
      context: {
        'curbside:mailFrom': 'Lincoln Schools <pickup@lincoln.example>',
        'curbside:mailSendRate': 40,
      },
    });
    const built = new CurbsideStack(app, 'CurbsideMail', { webDist });
    const synthesized = Template.fromStack(built).toJSON().Resources as Resources;
    const sender = synthesized[built.getLogicalId(built.mailSenderFunction.node.defaultChild as CfnFunction)];
    expect(sender?.Properties.Environment.Variables.MAIL_FROM).toBe(
      'Lincoln Schools <pickup@lincoln.example>',
    );
    expect(sender?.Properties.Environment.Variables.MAIL_SEND_RATE).toBe('40');
    const grant = Object.values(synthesized)
      .filter((r) => r.Type === 'AWS::IAM::Policy')
      .flatMap((r) => r.Properties.PolicyDocument.Statement)
      .find((s: any) => s.Action === 'ses:SendEmail');
    expect(grant.Condition).toEqual({ StringEquals: { 'ses:FromAddress': 'pickup@lincoln.example' } });
    expect(JSON.stringify(grant.Resource)).toContain(':identity/lincoln.example');
  });

  it('the admin function may read and write the school records of the data table, never Scan, and end sign-ins', () => {
    const granted = [
      'BatchGetItem',
      'BatchWriteItem',
      'ConditionCheckItem',
      'DeleteItem',
      'GetItem',
      'PutItem',
      'Query',
      'UpdateItem',
    ];
    expect([...FUNCTION_ACCESS.admin.data].sort()).toEqual(granted);
    expect(actionsOn('http-admin', `"${tableLogicalId(true)}"`).sort()).toEqual(
      granted.map((action) => `dynamodb:${action}`),
    );
    // Deactivation and new passwords close the user's live connections.
    expect(FUNCTION_ACCESS.admin.connections).toEqual(['Query', 'GetItem', 'BatchWriteItem']);
    expect(FUNCTION_ACCESS.admin.publishes).toBe(true);
  });
});

describe('HTTP API', () => {
  it('has exactly one route per entry of the route table, each on its area function, one integration per function', () => {
    const httpApi = apiLogicalId('HTTP');
    const routes = ofType('AWS::ApiGatewayV2::Route').filter(([, r]) => r.Properties.ApiId.Ref === httpApi);
    expect(routes.map(([, r]) => r.Properties.RouteKey).sort()).toEqual(routeList.map(routeKeyOf).sort());
    const integrationsOfFunction = new Map<string, Set<string>>();
    for (const route of routeList) {
      const [, resource] = only(routes.filter(([, r]) => r.Properties.RouteKey === routeKeyOf(route)));
      const integration = integrationOf(resource);
      expect(resources[integration]!.Properties).toMatchObject({
        IntegrationType: 'AWS_PROXY',
        PayloadFormatVersion: '2.0',
      });
      const fn = functionOfIntegration(integration);
      expect(fn, routeKeyOf(route)).toBe(logicalId(`http-${route.area}`));
      integrationsOfFunction.set(fn, new Set([...(integrationsOfFunction.get(fn) ?? []), integration]));
    }
    for (const [fn, integrations] of integrationsOfFunction) expect(integrations.size, fn).toBe(1);
  });

  it('lets API Gateway invoke each area function with one permission for all of its routes', () => {
    const httpApi = apiLogicalId('HTTP');
    for (const plan of functionPlan()) {
      if (plan.kind !== 'http') continue;
      const permissions = ofType('AWS::Lambda::Permission').filter(([, p]) =>
        JSON.stringify(p.Properties.FunctionName).includes(`"${logicalId(plan.id)}"`),
      );
      const [, permission] = only(permissions);
      expect(JSON.stringify(permission.Properties.SourceArn)).toContain(`{"Ref":"${httpApi}"},"/*/*/*"`);
    }
  });

  it('has a $default stage whose access log names the route, never the path (a pickup code is a path parameter)', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      ApiId: { Ref: apiLogicalId('HTTP') },
      StageName: '$default',
      AutoDeploy: true,
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: JSON.stringify(HTTP_ACCESS_LOG) },
    });
    const format = JSON.stringify(HTTP_ACCESS_LOG);
    expect(format).toContain('$context.routeKey');
    expect(format).not.toMatch(/\$context\.(path|resourcePath|requestOverride|http\.path)/);
  });
});

describe('what the stack costs in CloudFormation resources', () => {
  const count = (t: Template) => Object.keys(t.toJSON().Resources).length;

  // 188 before issue 29's nine routes (2 resources each) made it 206; issue 55's alarms, topic,
  // key, dashboard and dead-letter queues about 45 more; issues 52, 53 and 55's routes 302.
  it('stays far from the 500-resource limit: under 320 today', () => {
    expect(count(template)).toBeLessThan(320);
  });

  it('grows by at most 2 resources per route added to an area', () => {
    const extra = (n: number): RouteDefinition[] =>
      Array.from({ length: n }, (_, i) => ({
        ...(routeList.find((r) => r.name === 'listVehicles') as RouteDefinition),
        name: `extraRoute${i}`,
        path: `/api/extra-${i}`,
      }));
    const five = count(synth([...routeList, ...extra(5)]).template);
    expect((five - count(template)) / 5).toBeLessThanOrEqual(2);
  }, 120_000);
});

describe('WebSocket API', () => {
  it('routes $connect, $disconnect and $default to the ws function through one integration', () => {
    const wsApi = apiLogicalId('WEBSOCKET');
    const routes = ofType('AWS::ApiGatewayV2::Route').filter(([, r]) => r.Properties.ApiId.Ref === wsApi);
    expect(routes.map(([, r]) => r.Properties.RouteKey).sort()).toEqual(Object.keys(WS_ROUTES).sort());
    const integrations = new Set(routes.map(([, route]) => integrationOf(route)));
    expect(integrations.size).toBe(1);
    expect(functionOfIntegration([...integrations][0] as string)).toBe(logicalId('ws'));
  });

  it('has the auto-deployed stage `ws`', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      ApiId: { Ref: apiLogicalId('WEBSOCKET') },
      StageName: 'ws',
      AutoDeploy: true,
    });
  });
});

describe('schedules', () => {
  it('one EventBridge rule per schedule, invoking the scheduled function with the schedule name', () => {
    const rules = ofType('AWS::Events::Rule');
    expect(rules).toHaveLength(schedules.length);
    for (const schedule of schedules) {
      const n = schedule.everyMinutes;
      const [, rule] = only(rules.filter(([, r]) => r.Properties.Description.includes(schedule.name)));
      expect(rule.Properties.ScheduleExpression).toBe(
        schedule.dailyAtHourUtc === undefined
          ? `rate(${n} ${n === 1 ? 'minute' : 'minutes'})`
          : `cron(0 ${schedule.dailyAtHourUtc} * * ? *)`,
      );
      const [target] = rule.Properties.Targets;
      expect(target.Arn['Fn::GetAtt'][0]).toBe(logicalId('scheduled'));
      expect(JSON.stringify(target.InputTransformer ?? target.Input)).toContain(
        `\\"schedule\\":\\"${schedule.name}\\"`,
      );
    }
  });
});

describe('the edge: nothing reaches a function but through CloudFront', () => {
  const distribution = () => only(ofType('AWS::CloudFront::Distribution'))[1].Properties.DistributionConfig;
  const secretId = () => only(ofType('AWS::SecretsManager::Secret'))[0];

  it('CloudFront sends the origin secret (a Secrets Manager reference, never the value) to both APIs', () => {
    const config = distribution();
    const apiOrigins = config.Origins.filter((o: any) =>
      JSON.stringify(o.DomainName).includes('execute-api'),
    );
    expect(apiOrigins).toHaveLength(2);
    for (const origin of apiOrigins) {
      const [header] = origin.OriginCustomHeaders;
      expect(header.HeaderName).toBe(ORIGIN_SECRET_HEADER);
      expect(JSON.stringify(header.HeaderValue)).toMatch(/\{\{resolve:secretsmanager:/);
      expect(JSON.stringify(header.HeaderValue)).toContain(`{"Ref":"${secretId()}"}`);
    }
    const s3 = config.Origins.filter((o: any) => !JSON.stringify(o.DomainName).includes('execute-api'));
    for (const origin of s3) expect(origin.OriginCustomHeaders).toBeUndefined();
  });

  it('the functions verify it (and may read it), and only the HTTP ones trust the visitor address', () => {
    for (const plan of functionPlan()) {
      const env = environmentOf(plan.id);
      if (plan.kind === 'scheduled') {
        expect(env.ORIGIN_SECRET_ARN).toBeUndefined();
        continue;
      }
      expect(env.ORIGIN_SECRET_ARN, plan.id).toEqual({ Ref: secretId() });
      expect(actionsOn(plan.id, `"${secretId()}"`), plan.id).toEqual(['secretsmanager:GetSecretValue']);
      expect(env.TRUST_VIEWER_ADDRESS, plan.id).toBe(plan.kind === 'http' ? '1' : undefined);
      expect(JSON.stringify(env.ALLOWED_ORIGINS), plan.id).toContain('DomainName');
    }
  });

  it('the secret is rotated every 30 days by a function that updates CloudFront', () => {
    const [, rotation] = only(ofType('AWS::SecretsManager::RotationSchedule'));
    expect(rotation.Properties.SecretId).toEqual({ Ref: secretId() });
    expect(rotation.Properties.RotationRules.ScheduleExpression).toBe('rate(30 days)');
    const rotator = stack.getLogicalId(stack.rotationFunction.node.defaultChild as CfnFunction);
    expect(rotation.Properties.RotationLambdaARN).toEqual({ 'Fn::GetAtt': [rotator, 'Arn'] });
    const role = resources[rotator]!.Properties.Role['Fn::GetAtt'][0];
    const actions = statementsOfRole(role).flatMap((s) => [s.Action].flat());
    expect(actions).toEqual(
      expect.arrayContaining(['cloudfront:GetDistributionConfig', 'cloudfront:UpdateDistribution']),
    );
  });

  it('outputs no direct API address', () => {
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(Object.keys(outputs).sort()).toEqual(['SiteUrl', 'TableName', 'WebSocketUrl']);
    for (const [name, output] of Object.entries(outputs)) {
      expect(JSON.stringify(output.Value), name).not.toMatch(/execute-api|WebSocketApi|HttpApi/);
    }
  });
});

describe('web app', () => {
  it('buckets block all public access and refuse plain HTTP', () => {
    const buckets = ofType('AWS::S3::Bucket');
    expect(buckets.length).toBeGreaterThan(0);
    for (const [id, bucket] of buckets) {
      expect(bucket.Properties.PublicAccessBlockConfiguration, id).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(bucket.DeletionPolicy, id).toBe('Retain');
      const policy = only(
        ofType('AWS::S3::BucketPolicy').filter(([, p]) => p.Properties.Bucket.Ref === id),
      )[1].Properties.PolicyDocument.Statement;
      expect(policy, id).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );
    }
  });

  it('CloudFront: S3 through OAC with the SPA fallback function, /api/* and /ws to the APIs uncached', () => {
    const [, distribution] = only(ofType('AWS::CloudFront::Distribution'));
    const config = distribution.Properties.DistributionConfig;
    const originOf = (id: string) => config.Origins.find((o: any) => o.Id === id);

    const s3Origin = originOf(config.DefaultCacheBehavior.TargetOriginId);
    expect(s3Origin.OriginAccessControlId).toEqual({
      'Fn::GetAtt': [only(ofType('AWS::CloudFront::OriginAccessControl'))[0], 'Id'],
    });
    expect(config.DefaultCacheBehavior.ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(config.DefaultCacheBehavior.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: expect.anything() },
    ]);
    expect(config.CustomErrorResponses).toBeUndefined();
    expect(config.Logging).toBeDefined();

    const behaviors = Object.fromEntries(config.CacheBehaviors.map((b: any) => [b.PathPattern, b]));
    expect(Object.keys(behaviors).sort()).toEqual([
      '/api/*',
      '/assets/*',
      '/bus-driver',
      '/bus-driver/*',
      '/front-queue',
      '/front-queue/*',
      '/parent-dashboard',
      '/parent-dashboard/*',
      '/ws',
    ]);
    const expectedApi = { '/api/*': apiLogicalId('HTTP'), '/ws': apiLogicalId('WEBSOCKET') };
    for (const [path, api] of Object.entries(expectedApi)) {
      const behavior = behaviors[path];
      expect(behavior.CachePolicyId, path).toBe(CACHING_DISABLED);
      expect(behavior.OriginRequestPolicyId, path).toBe(ALL_VIEWER_EXCEPT_HOST_HEADER);
      expect(behavior.AllowedMethods, path).toEqual(expect.arrayContaining(['GET', 'POST', 'PUT', 'DELETE']));
      expect(behavior.ViewerProtocolPolicy, path).not.toBe('allow-all');
      const origin = originOf(behavior.TargetOriginId);
      expect(origin.DomainName, path).toEqual({
        'Fn::Join': [
          '',
          [{ Ref: api }, '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }],
        ],
      });
      expect(origin.CustomOriginConfig.OriginProtocolPolicy, path).toBe('https-only');
    }
  });

  const headersPolicy = (ref: unknown) => {
    const id = (ref as { Ref: string }).Ref;
    return resources[id]!.Properties.ResponseHeadersPolicyConfig;
  };

  it('every answer carries the strict CSP, Permissions-Policy, nosniff, Referrer-Policy and HSTS the laptop sends', () => {
    const config = only(ofType('AWS::CloudFront::Distribution'))[1].Properties.DistributionConfig;
    const expected = securityHeaders('/');
    const behaviors = [
      config.DefaultCacheBehavior,
      // The pages with their own Permissions-Policy (and the front queue's CSP) are checked below.
      ...config.CacheBehaviors.filter(
        (b: any) => !/^\/(bus-driver|parent-dashboard|front-queue)/.test(b.PathPattern),
      ),
    ];
    for (const behavior of behaviors) {
      const policy = headersPolicy(behavior.ResponseHeadersPolicyId);
      const security = policy.SecurityHeadersConfig;
      expect(security.ContentSecurityPolicy).toEqual({
        ContentSecurityPolicy: expected['content-security-policy'],
        Override: true,
      });
      expect(security.ContentSecurityPolicy.ContentSecurityPolicy).toMatch(
        /script-src 'self';.*frame-ancestors 'none'/,
      );
      expect(security.ContentTypeOptions).toEqual({ Override: true });
      expect(security.FrameOptions).toEqual({ FrameOption: 'DENY', Override: true });
      expect(security.ReferrerPolicy).toEqual({
        ReferrerPolicy: 'strict-origin-when-cross-origin',
        Override: true,
      });
      expect(security.StrictTransportSecurity.AccessControlMaxAgeSec).toBeGreaterThanOrEqual(31_536_000);
      expect(policy.CustomHeadersConfig.Items).toContainEqual({
        Header: 'Permissions-Policy',
        Value: expected['permissions-policy'],
        Override: true,
      });
      expect(expected['permissions-policy']).toContain('geolocation=()');
    }
  });

  it("the bus driver's page and the parent's dashboard alone may ask for the position", () => {
    const config = only(ofType('AWS::CloudFront::Distribution'))[1].Properties.DistributionConfig;
    for (const pattern of ['/bus-driver', '/bus-driver/*', '/parent-dashboard', '/parent-dashboard/*']) {
      const behavior = config.CacheBehaviors.find((b: any) => b.PathPattern === pattern);
      expect(behavior.TargetOriginId).toBe(config.DefaultCacheBehavior.TargetOriginId);
      expect(behavior.FunctionAssociations).toEqual(config.DefaultCacheBehavior.FunctionAssociations);
      const [permissions] = headersPolicy(behavior.ResponseHeadersPolicyId).CustomHeadersConfig.Items;
      expect(permissions.Value).toBe(securityHeaders('/bus-driver')['permissions-policy']);
      expect(permissions.Value).toContain('geolocation=(self)');
    }
  });

  it("the front queue's page alone may open the camera and compile WebAssembly (the Scan)", () => {
    const config = only(ofType('AWS::CloudFront::Distribution'))[1].Properties.DistributionConfig;
    const expected = securityHeaders('/front-queue');
    for (const pattern of ['/front-queue', '/front-queue/*']) {
      const behavior = config.CacheBehaviors.find((b: any) => b.PathPattern === pattern);
      expect(behavior.TargetOriginId).toBe(config.DefaultCacheBehavior.TargetOriginId);
      expect(behavior.FunctionAssociations).toEqual(config.DefaultCacheBehavior.FunctionAssociations);
      const policy = headersPolicy(behavior.ResponseHeadersPolicyId);
      const [permissions] = policy.CustomHeadersConfig.Items;
      expect(permissions.Value).toBe(expected['permissions-policy']);
      expect(permissions.Value).toContain('camera=(self)');
      expect(permissions.Value).toContain('geolocation=()');
      expect(policy.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy).toBe(
        expected['content-security-policy'],
      );
      expect(expected['content-security-policy']).toContain("script-src 'self' 'wasm-unsafe-eval';");
    }
  });

  const cloudFrontFunction = (comment: RegExp) => {
    const [, fn] = only(
      ofType('AWS::CloudFront::Function').filter(([, f]) =>
        comment.test(f.Properties.FunctionConfig.Comment),
      ),
    );
    return new Function(`${fn.Properties.FunctionCode}; return handler;`)() as (event: any) => any;
  };

  it('API requests carry the visitor address as CloudFront saw it, never one the browser made up', () => {
    const [, distribution] = only(ofType('AWS::CloudFront::Distribution'));
    const api = distribution.Properties.DistributionConfig.CacheBehaviors.find(
      (b: any) => b.PathPattern === '/api/*',
    );
    expect(api.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: expect.anything() },
    ]);
    const stamp = cloudFrontFunction(/visitor address/);
    const request = { uri: '/api/login', headers: { [VIEWER_ADDRESS_HEADER]: { value: '10.9.9.9' } } };
    expect(stamp({ request, viewer: { ip: '203.0.113.7' } }).headers[VIEWER_ADDRESS_HEADER]).toEqual({
      value: '203.0.113.7',
    });
  });

  it('the SPA fallback rewrites extensionless paths only', () => {
    const handler = cloudFrontFunction(/single-page app/);
    const rewrite = (uri: string) => handler({ request: { uri } }).uri;
    expect(rewrite('/')).toBe('/index.html');
    expect(rewrite('/queue')).toBe('/index.html');
    expect(rewrite('/students/12/pickup')).toBe('/index.html');
    expect(rewrite('/assets/index-abc123.js')).toBe('/assets/index-abc123.js');
    expect(rewrite('/favicon.svg')).toBe('/favicon.svg');
  });

  /** A behavior's cache policy (one of this stack's own) and the Cache-Control its answers carry. */
  const cachingOf = (behavior: any) => ({
    cachePolicy: resources[behavior.CachePolicyId.Ref]!.Properties.CachePolicyConfig,
    cacheControl: headersPolicy(behavior.ResponseHeadersPolicyId).CustomHeadersConfig.Items.find(
      (item: any) => item.Header === 'Cache-Control',
    ),
  });

  it('serves the site compressed (Brotli or gzip) and cached as the laptop serves it', () => {
    const config = only(ofType('AWS::CloudFront::Distribution'))[1].Properties.DistributionConfig;
    const behaviors = Object.fromEntries(config.CacheBehaviors.map((b: any) => [b.PathPattern, b]));
    const site = [config.DefaultCacheBehavior, behaviors['/bus-driver'], behaviors['/bus-driver/*']];
    for (const behavior of [...site, behaviors['/assets/*']]) {
      expect(behavior.Compress).toBe(true);
      const { cachePolicy } = cachingOf(behavior);
      expect(cachePolicy.ParametersInCacheKeyAndForwardedToOrigin).toMatchObject({
        EnableAcceptEncodingBrotli: true,
        EnableAcceptEncodingGzip: true,
        CookiesConfig: { CookieBehavior: 'none' },
        QueryStringsConfig: { QueryStringBehavior: 'none' },
      });
    }
    // index.html and the other unhashed files: never kept at the edge past their no-cache, revalidated by browsers.
    for (const behavior of site) {
      const { cachePolicy, cacheControl } = cachingOf(behavior);
      expect(cachePolicy).toMatchObject({ MinTTL: 0, DefaultTTL: 0, MaxTTL: HASHED_MAX_AGE_SECONDS });
      expect(cacheControl).toEqual({ Header: 'Cache-Control', Value: 'no-cache', Override: true });
    }
    // Hashed assets: a year, at the edge and in the browser, never asked again.
    const hashed = behaviors['/assets/*'];
    expect(hashed.TargetOriginId).toBe(config.DefaultCacheBehavior.TargetOriginId);
    const { cachePolicy, cacheControl } = cachingOf(hashed);
    expect(cachePolicy).toMatchObject({ MinTTL: 31_536_000, DefaultTTL: 31_536_000, MaxTTL: 31_536_000 });
    expect(cacheControl).toEqual({
      Header: 'Cache-Control',
      Value: 'public, max-age=31536000, immutable',
      Override: true,
    });
    expect(SITE_CACHE_CONTROL.hashed).toBe(cacheControl.Value);
  });

  it('uploads no precompressed copy of the build: CloudFront compresses by itself', () => {
    const staged = readdirSync(app.outdir, { withFileTypes: true }).filter(
      (entry) => entry.isDirectory() && entry.name.startsWith('asset.'),
    );
    const webAssets = staged
      .map((entry) => entry.name)
      .filter((name) => readdirSync(join(app.outdir, name)).includes('index.html'));
    expect(webAssets).toHaveLength(1);
    const dir = join(app.outdir, webAssets[0] as string);
    expect(readdirSync(dir).sort()).toEqual(['assets', 'index.html']);
    expect(readdirSync(join(dir, 'assets'))).toEqual(['app-1.js']);
  });

  it('deploys web/dist: hashed assets kept and cached long, the rest revalidated and invalidated', () => {
    const deployments = ofType('Custom::CDKBucketDeployment').map(([, d]) => d.Properties);
    expect(deployments).toHaveLength(2);
    const assets = only(deployments.filter((d) => JSON.stringify(d.Include) === '["assets/*"]'));
    expect(assets).toMatchObject({ Exclude: ['*'], Prune: false });
    expect(assets.DistributionId).toBeUndefined();
    expect(deployments).toContainEqual(
      expect.objectContaining({ Exclude: ['assets/*'], Prune: true, DistributionPaths: ['/*'] }),
    );
  });

  it('skips the deployment with a warning when the web app is not built', () => {
    const empty = mkdtempSync(join(tmpdir(), 'curbside-noweb-'));
    try {
      const siteStack = new Stack(testApp(), 'SiteOnly');
      new Site(siteStack, 'Site', {
        httpApiId: 'http123',
        webSocketApiId: 'ws123',
        webDist: empty,
        originSecret: new Secret(siteStack, 'Secret'),
      });
      Template.fromStack(siteStack).resourceCountIs('Custom::CDKBucketDeployment', 0);
      Annotations.fromStack(siteStack).hasWarning('/SiteOnly/Site', Match.stringLikeRegexp('not deployed'));
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

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
      JSON.stringify({ Ref: stack.getLogicalId(stack.rotationFunction.node.defaultChild as CfnFunction) }),
    );
  });

  it('the topic is encrypted with a rotated key CloudWatch may use; the email subscription is the AlarmEmail parameter', () => {
    const [, topic] = only(ofType('AWS::SNS::Topic'));
    expect(topic.Properties.KmsMasterKeyId).toBeDefined();
    const [, key] = only(ofType('AWS::KMS::Key'));
    expect(key.Properties.EnableKeyRotation).toBe(true);
    expect(JSON.stringify(key.Properties.KeyPolicy)).toContain('cloudwatch.amazonaws.com');
    const parameters = template.toJSON().Parameters;
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
    const annotations = Annotations.fromStack(stack);
    const nag = Match.stringLikeRegexp('AwsSolutions-.*');
    const summarize = (messages: { id: string; entry: { data?: unknown } }[]) =>
      messages.map((m) => `${m.id}: ${String(m.entry.data).split('\n')[0]}`);
    expect(summarize(annotations.findError('*', nag))).toEqual([]);
    expect(summarize(annotations.findWarning('*', nag))).toEqual([]);
  });

  it('accepts far fewer wildcard grants than before the grouping (IAM5 suppressions: 94 then)', () => {
    const iam5 = Object.values(resources).flatMap((r) =>
      (r.Metadata?.cdk_nag?.rules_to_suppress ?? []).filter(
        (s: { id: string }) => s.id === 'AwsSolutions-IAM5',
      ),
    );
    // 45 with the import-jobs function (its index Query and ManageConnections, on the role and its policy);
    // 47 with the mail sender (its index Query, on the role and its policy).
    expect(iam5.length).toBeLessThanOrEqual(47);
  });
});

describe('Clever single sign-on', () => {
  it('is off without curbside:cleverClientId: no Clever secret, no Clever settings', () => {
    expect(stack.cleverClientSecret).toBeUndefined();
    for (const plan of functionPlan())
      expect(environmentOf(plan.id).CLEVER_CLIENT_ID, plan.id).toBeUndefined();
  });

  it('with it, gives the auth function alone the client id and read access to a secret for the client secret', () => {
    const app = testApp({ context: { 'curbside:cleverClientId': 'clever-app-123' } });
    const built = new CurbsideStack(app, 'CurbsideClever', { webDist });
    Aspects.of(app).add(new AwsSolutionsChecks());
    const synthesized = Template.fromStack(built).toJSON().Resources as Resources;
    const secret = built.cleverClientSecret;
    expect(secret).toBeDefined();
    const secretLogicalId = built.getLogicalId(secret?.node.defaultChild as CfnSecret);
    for (const [planId, fn] of built.functions) {
      const variables =
        synthesized[built.getLogicalId(fn.node.defaultChild as CfnFunction)]?.Properties.Environment
          .Variables;
      if (planId === 'http-auth') {
        expect(variables.CLEVER_CLIENT_ID).toBe('clever-app-123');
        expect(variables.CLEVER_CLIENT_SECRET_ARN).toEqual({ Ref: secretLogicalId });
      } else {
        expect(variables.CLEVER_CLIENT_ID, planId).toBeUndefined();
        expect(variables.CLEVER_CLIENT_SECRET_ARN, planId).toBeUndefined();
      }
    }
    // Only the auth function's role may read it.
    const readers = Object.values(synthesized)
      .filter((r) => r.Type === 'AWS::IAM::Policy')
      .filter((p) => JSON.stringify(p.Properties.PolicyDocument).includes(`"Ref":"${secretLogicalId}"`))
      .map((p) => JSON.stringify(p.Properties.Roles));
    expect(readers).toHaveLength(1);
    expect(readers[0]).toContain(
      built.getLogicalId(
        (built.functions.get('http-auth') as LambdaFunction).role?.node.defaultChild as CfnRole,
      ),
    );
    const nag = Annotations.fromStack(built).findError('*', Match.stringLikeRegexp('AwsSolutions-.*'));
    expect(nag.map((m) => m.id)).toEqual([]);
  });
});
