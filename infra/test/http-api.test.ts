import { functionPlan, type RouteDefinition, routeKeyOf, routeList } from '@curbside/api';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { HTTP_ACCESS_LOG } from '../lib/curbside-stack';
import { inspect, integrationOf, only, synthesizeOnce } from './synth';

/** The HTTP API (`lib/http-api.ts`) and what a route costs in resources. */
const curbside = synthesizeOnce();
const { logicalId, ofType, apiLogicalId, functionOfIntegration } = inspect(curbside);

describe('HTTP API', () => {
  it('has exactly one route per entry of the route table, each on its area function, one integration per function', () => {
    const httpApi = apiLogicalId('HTTP');
    const routes = ofType('AWS::ApiGatewayV2::Route').filter(([, r]) => r.Properties.ApiId.Ref === httpApi);
    expect(routes.map(([, r]) => r.Properties.RouteKey).sort()).toEqual(routeList.map(routeKeyOf).sort());
    const integrationsOfFunction = new Map<string, Set<string>>();
    for (const route of routeList) {
      const [, resource] = only(routes.filter(([, r]) => r.Properties.RouteKey === routeKeyOf(route)));
      const integration = integrationOf(resource);
      expect(curbside.resources[integration]!.Properties).toMatchObject({
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
    curbside.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
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
    expect(count(curbside.template)).toBeLessThan(320);
  });

  it('grows by at most 2 resources per route added to an area', () => {
    const extra = (n: number): RouteDefinition[] =>
      Array.from({ length: n }, (_, i) => ({
        ...(routeList.find((r) => r.name === 'listVehicles') as RouteDefinition),
        name: `extraRoute${i}`,
        path: `/api/extra-${i}`,
      }));
    const five = count(curbside.synth([...routeList, ...extra(5)]).template);
    expect((five - count(curbside.template)) / 5).toBeLessThanOrEqual(2);
  }, 120_000);
});
