import { functionPlan, ORIGIN_SECRET_HEADER } from '@curbside/api';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { inspect, only, synthesizeOnce } from './synth';

/** The edge (`lib/site.ts`, `bindEdge`, `lib/rotation.ts`): nothing reaches a function but through CloudFront. */
const curbside = synthesizeOnce();
const { ofType, statementsOfRole, actionsOn, environmentOf } = inspect(curbside);

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
    const rotator = curbside.stack.getLogicalId(
      curbside.stack.rotationFunction.node.defaultChild as CfnFunction,
    );
    expect(rotation.Properties.RotationLambdaARN).toEqual({ 'Fn::GetAtt': [rotator, 'Arn'] });
    const role = curbside.resources[rotator]!.Properties.Role['Fn::GetAtt'][0];
    const actions = statementsOfRole(role).flatMap((s) => [s.Action].flat());
    expect(actions).toEqual(
      expect.arrayContaining(['cloudfront:GetDistributionConfig', 'cloudfront:UpdateDistribution']),
    );
  });

  it('outputs no direct API address', () => {
    const outputs = curbside.template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(Object.keys(outputs).sort()).toEqual(['SiteUrl', 'TableName', 'WebSocketUrl']);
    for (const [name, output] of Object.entries(outputs)) {
      expect(JSON.stringify(output.Value), name).not.toMatch(/execute-api|WebSocketApi|HttpApi/);
    }
  });
});
