import { functionPlan } from '@curbside/api';
import { Aspects } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import type { CfnRole } from 'aws-cdk-lib/aws-iam';
import type { CfnFunction, Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { CfnSecret } from 'aws-cdk-lib/aws-secretsmanager';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { CurbsideStack } from '../lib/curbside-stack';
import { inspect, type Resources, synthesizeOnce } from './synth';

/** Clever single sign-on (`lib/clever.ts`). */
const curbside = synthesizeOnce();
const { environmentOf } = inspect(curbside);

describe('Clever single sign-on', () => {
  it('is off without curbside:cleverClientId: no Clever secret, no Clever settings', () => {
    expect(curbside.stack.cleverClientSecret).toBeUndefined();
    for (const plan of functionPlan())
      expect(environmentOf(plan.id).CLEVER_CLIENT_ID, plan.id).toBeUndefined();
  });

  it('with it, gives the auth function alone the client id and read access to a secret for the client secret', () => {
    const app = curbside.testApp({ context: { 'curbside:cleverClientId': 'clever-app-123' } });
    const built = new CurbsideStack(app, 'CurbsideClever', { webDist: curbside.webDist });
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
