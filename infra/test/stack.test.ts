import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { routeKeyOf, routeList, schedules, VIEWER_ADDRESS_HEADER } from '@curbside/api';
import { handlerModules, WS_ROUTES } from '@curbside/functions/handlers';
import { tableDefinition } from '@curbside/store/table';
import { App, Aspects, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureFunctionBundles } from '../lib/bundles';
import { CurbsideStack } from '../lib/curbside-stack';
import { Site } from '../lib/site';

type Resources = Record<string, { Type: string; Properties: any; DeletionPolicy?: string }>;

/** Managed policy ids (same in every account). */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

let webDist: string;
let stack: CurbsideStack;
let template: Template;
let resources: Resources;

/** The stack is synthesized once for the whole file (with cdk-nag, as in bin/app.ts). */
beforeAll(() => {
  ensureFunctionBundles();
  webDist = mkdtempSync(join(tmpdir(), 'curbside-web-'));
  mkdirSync(join(webDist, 'assets'));
  writeFileSync(join(webDist, 'index.html'), '<!doctype html><script src="/assets/app-1.js"></script>');
  writeFileSync(join(webDist, 'assets', 'app-1.js'), 'console.log(1)');
  const app = new App();
  stack = new CurbsideStack(app, 'Curbside', { webDist });
  Aspects.of(app).add(new AwsSolutionsChecks());
  template = Template.fromStack(stack);
  resources = template.toJSON().Resources;
}, 120_000);

afterAll(() => {
  if (webDist) rmSync(webDist, { recursive: true, force: true });
});

const logicalId = (moduleId: string): string => {
  const fn = stack.functions.get(moduleId);
  if (!fn) throw new Error(`no function ${moduleId}`);
  return stack.getLogicalId(fn.node.defaultChild as CfnFunction);
};
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const only = <T>(items: T[]): T => {
  expect(items).toHaveLength(1);
  return items[0] as T;
};
const apiLogicalId = (protocol: 'HTTP' | 'WEBSOCKET') =>
  only(ofType('AWS::ApiGatewayV2::Api').filter(([, r]) => r.Properties.ProtocolType === protocol))[0];
/** `integrations/{Ref}` → the integration's logical id. */
const integrationOf = (route: { Properties: any }): string => {
  const parts = route.Properties.Target['Fn::Join'][1];
  return parts[1].Ref;
};
/** The Lambda function an integration invokes. */
const functionOfIntegration = (integrationId: string): string => {
  const uri = resources[integrationId]?.Properties.IntegrationUri;
  // HTTP: GetAtt Arn; WebSocket: the invocation ARN built with Fn::Join.
  const json = JSON.stringify(uri);
  const match = /"Fn::GetAtt":\["([A-Za-z0-9]+)","Arn"\]/.exec(json);
  if (!match?.[1]) throw new Error(`integration ${integrationId} has no function: ${json}`);
  return match[1];
};
const policyActionsOfRole = (roleLogicalId: string): string[] =>
  ofType('AWS::IAM::Policy')
    .filter(([, p]) => JSON.stringify(p.Properties.Roles) === JSON.stringify([{ Ref: roleLogicalId }]))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement)
    .filter((statement: any) => statement.Effect === 'Allow')
    .flatMap((statement: any) => [statement.Action].flat());

describe('table', () => {
  it('has the keys, indexes and TTL of the one table definition, on demand, with PITR', () => {
    const allKeys = [
      tableDefinition.partitionKey,
      tableDefinition.sortKey,
      ...tableDefinition.globalSecondaryIndexes.flatMap((index) => [index.partitionKey, index.sortKey]),
    ];
    template.hasResourceProperties('AWS::DynamoDB::Table', {
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
    });
  });

  it('is retained when the stack goes away', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    template.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });
});

describe('functions', () => {
  it('one per handler module, Node.js 22 on arm64, with TABLE_NAME and a log group with retention', () => {
    const tableId = only(ofType('AWS::DynamoDB::Table'))[0];
    expect([...stack.functions.keys()].sort()).toEqual(
      handlerModules()
        .map((m) => m.id)
        .sort(),
    );
    for (const module of handlerModules()) {
      const fn = resources[logicalId(module.id)]!.Properties;
      expect(fn.Runtime, module.id).toBe('nodejs22.x');
      expect(fn.Architectures, module.id).toEqual(['arm64']);
      expect(fn.Handler, module.id).toBe('index.handler');
      expect(fn.Environment.Variables.TABLE_NAME, module.id).toEqual({ Ref: tableId });
      const logGroupId = fn.LoggingConfig.LogGroup.Ref;
      expect(resources[logGroupId]!.Properties.RetentionInDays, module.id).toBeGreaterThan(0);
    }
  });

  it('the publishers get the WebSocket management endpoint and ManageConnections on the ws stage only', () => {
    const wsApi = apiLogicalId('WEBSOCKET');
    const publishers = [
      ...routeList.map((r) => `http-${r.name}`),
      `ws-${WS_ROUTES.$default}`,
      ...schedules.map((s) => `scheduled-${s.name}`),
    ];
    for (const id of handlerModules().map((m) => m.id)) {
      const fn = resources[logicalId(id)]!.Properties;
      const endpoint = fn.Environment.Variables.WS_MANAGEMENT_ENDPOINT;
      const actions = policyActionsOfRole(fn.Role['Fn::GetAtt'][0]);
      if (publishers.includes(id)) {
        expect(endpoint, id).toEqual({
          'Fn::Join': [
            '',
            [
              'https://',
              { Ref: wsApi },
              '.execute-api.',
              { Ref: 'AWS::Region' },
              '.',
              { Ref: 'AWS::URLSuffix' },
              '/ws',
            ],
          ],
        });
        expect(actions, id).toContain('execute-api:ManageConnections');
      } else {
        expect(endpoint, id).toBeUndefined();
        expect(actions, id).not.toContain('execute-api:ManageConnections');
      }
    }
    const grants = ofType('AWS::IAM::Policy')
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement)
      .filter((s: any) => s.Action === 'execute-api:ManageConnections');
    expect(grants.length).toBe(publishers.length);
    for (const grant of grants)
      expect(JSON.stringify(grant.Resource)).toMatch(/"\/ws\/\*\/@connections\/\*"/);
  });

  it('the HTTP handlers accept mutations from the CloudFront origin (Host there is execute-api)', () => {
    const distribution = only(ofType('AWS::CloudFront::Distribution'))[0];
    for (const route of routeList) {
      const fn = resources[logicalId(`http-${route.name}`)]!.Properties;
      expect(fn.Environment.Variables.ALLOWED_ORIGINS, route.name).toEqual({
        'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distribution, 'DomainName'] }]],
      });
    }
  });

  it('the health check may read the table but not write it', () => {
    const role = resources[logicalId('http-health')]!.Properties.Role['Fn::GetAtt'][0];
    const actions = policyActionsOfRole(role);
    expect(actions).toContain('dynamodb:GetItem');
    const writes = actions.filter((action) =>
      /^dynamodb:(\*|Put|Update|Delete|BatchWrite|TransactWrite|PartiQL(Insert|Update|Delete))/.test(action),
    );
    expect(writes).toEqual([]);
    expect(resources[role]!.Properties.ManagedPolicyArns).toBeUndefined();
  });

  it('the other handlers may write the table', () => {
    const role = resources[logicalId(`ws-${WS_ROUTES.$connect}`)]!.Properties.Role['Fn::GetAtt'][0];
    expect(policyActionsOfRole(role)).toEqual(
      expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:DeleteItem']),
    );
  });
});

describe('HTTP API', () => {
  it('has exactly one route per entry of the route table, each with its own integration and function', () => {
    const httpApi = apiLogicalId('HTTP');
    const routes = ofType('AWS::ApiGatewayV2::Route').filter(([, r]) => r.Properties.ApiId.Ref === httpApi);
    expect(routes.map(([, r]) => r.Properties.RouteKey).sort()).toEqual(routeList.map(routeKeyOf).sort());
    const integrations = new Set<string>();
    const functions = new Set<string>();
    for (const route of routeList) {
      const [, resource] = only(routes.filter(([, r]) => r.Properties.RouteKey === routeKeyOf(route)));
      const integration = integrationOf(resource);
      expect(resources[integration]!.Properties).toMatchObject({
        IntegrationType: 'AWS_PROXY',
        PayloadFormatVersion: '2.0',
      });
      expect(functionOfIntegration(integration), routeKeyOf(route)).toBe(logicalId(`http-${route.name}`));
      integrations.add(integration);
      functions.add(functionOfIntegration(integration));
    }
    expect(integrations.size).toBe(routeList.length);
    expect(functions.size).toBe(routeList.length);
  });

  it('has a $default stage with access logs', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      ApiId: { Ref: apiLogicalId('HTTP') },
      StageName: '$default',
      AutoDeploy: true,
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.anyValue() },
    });
  });
});

describe('WebSocket API', () => {
  it('routes $connect, $disconnect and $default to the ws functions', () => {
    const wsApi = apiLogicalId('WEBSOCKET');
    const routes = ofType('AWS::ApiGatewayV2::Route').filter(([, r]) => r.Properties.ApiId.Ref === wsApi);
    expect(routes.map(([, r]) => r.Properties.RouteKey).sort()).toEqual(Object.keys(WS_ROUTES).sort());
    for (const [routeKey, name] of Object.entries(WS_ROUTES)) {
      const [, route] = only(routes.filter(([, r]) => r.Properties.RouteKey === routeKey));
      expect(functionOfIntegration(integrationOf(route)), routeKey).toBe(logicalId(`ws-${name}`));
    }
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
  it('one EventBridge rule per schedule, invoking its function', () => {
    const rules = ofType('AWS::Events::Rule');
    expect(rules).toHaveLength(schedules.length);
    for (const schedule of schedules) {
      const n = schedule.everyMinutes;
      const [, rule] = only(
        rules.filter(([, r]) =>
          r.Properties.Targets.some(
            (t: any) => t.Arn['Fn::GetAtt']?.[0] === logicalId(`scheduled-${schedule.name}`),
          ),
        ),
      );
      expect(rule.Properties.ScheduleExpression).toBe(`rate(${n} ${n === 1 ? 'minute' : 'minutes'})`);
      expect(rule.Properties.State).toBe('ENABLED');
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
    expect(config.DefaultCacheBehavior.ResponseHeadersPolicyId).toBeDefined();
    expect(config.Logging).toBeDefined();

    const behaviors = Object.fromEntries(config.CacheBehaviors.map((b: any) => [b.PathPattern, b]));
    expect(Object.keys(behaviors).sort()).toEqual(['/api/*', '/ws']);
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
    for (const route of routeList) {
      const fn = resources[logicalId(`http-${route.name}`)]!.Properties;
      expect(fn.Environment.Variables.TRUST_VIEWER_ADDRESS, route.name).toBe('1');
    }
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
      const siteStack = new Stack(new App(), 'SiteOnly');
      new Site(siteStack, 'Site', { httpApiId: 'http123', webSocketApiId: 'ws123', webDist: empty });
      Template.fromStack(siteStack).resourceCountIs('Custom::CDKBucketDeployment', 0);
      Annotations.fromStack(siteStack).hasWarning('/SiteOnly/Site', Match.stringLikeRegexp('not deployed'));
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('outputs and checks', () => {
  it('outputs the site, API and WebSocket URLs and the table name', () => {
    const outputs = Object.keys(template.toJSON().Outputs);
    expect(outputs).toEqual(expect.arrayContaining(['SiteUrl', 'HttpApiUrl', 'WebSocketUrl', 'TableName']));
  });

  it('cdk-nag AwsSolutions finds no unsuppressed error or warning', () => {
    const annotations = Annotations.fromStack(stack);
    const nag = Match.stringLikeRegexp('AwsSolutions-.*');
    const summarize = (messages: { id: string; entry: { data?: unknown } }[]) =>
      messages.map((m) => `${m.id}: ${String(m.entry.data).split('\n')[0]}`);
    expect(summarize(annotations.findError('*', nag))).toEqual([]);
    expect(summarize(annotations.findWarning('*', nag))).toEqual([]);
  });
});
