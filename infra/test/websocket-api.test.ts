import { schedules, WS_ROUTES } from '@curbside/api';
import { describe, expect, it } from 'vitest';
import { inspect, integrationOf, only, synthesizeOnce } from './synth';

/** The WebSocket API (`lib/websocket-api.ts`) and the schedules (`lib/schedules.ts`). */
const curbside = synthesizeOnce();
const { logicalId, ofType, apiLogicalId, functionOfIntegration } = inspect(curbside);

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
    curbside.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
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
