import { functionPlan, IMPORT_JOBS, MAIL_SENDER } from '@curbside/api';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { CurbsideStack } from '../lib/curbside-stack';
import { inspect, only, type Resources, synthesizeOnce } from './synth';

/** The mail sender and who may start it (`lib/mail.ts`). */
const curbside = synthesizeOnce();
const {
  invokeConfigOf,
  rolesInvoking,
  logicalId,
  ofType,
  tableLogicalId,
  statementsOfRole,
  roleOf,
  actionsOn,
  environmentOf,
} = inspect(curbside);

describe('mail', () => {
  const plans = functionPlan();

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
    // Nor any other role or policy of the curbside.stack.
    const sesGrants = ofType('AWS::IAM::Policy')
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement)
      .filter((s: any) => [s.Action].flat().some((a: string) => a.startsWith('ses:')));
    expect(sesGrants).toEqual([grant]);
  });

  it('the mail sender: 15 minutes, one invocation at a time, started by the admin and auth functions and itself', () => {
    const sender = logicalId(MAIL_SENDER.id);
    const fn = curbside.resources[sender]!.Properties;
    expect(fn.Timeout).toBe(900);
    expect(fn.ReservedConcurrentExecutions).toBe(1);
    expect(fn.Environment.Variables.MAIL_SEND_RATE).toBe('10');
    expect(invokeConfigOf(sender).Properties.MaximumRetryAttempts).toBe(2);
    // The admin function emails invites; the auth function a parent's password-reset link (issue 50).
    expect(rolesInvoking(sender)).toEqual(['http-admin', 'http-auth', MAIL_SENDER.id].map(roleOf).sort());
    expect(environmentOf('http-admin').MAIL_SENDER_FUNCTION).toEqual({ Ref: sender });
    expect(environmentOf('http-auth').MAIL_SENDER_FUNCTION).toEqual({ Ref: sender });
    // It reads and settles a run's messages; nothing else of the table, never the connections.
    expect(actionsOn(MAIL_SENDER.id, `"${tableLogicalId(true)}"`).sort()).toEqual(
      MAIL_SENDER.access.data.map((a) => `dynamodb:${a}`).sort(),
    );
    expect(environmentOf(MAIL_SENDER.id).CONNECTION_TABLE_NAME).toBeUndefined();
  });

  it('the sender comes from CDK context curbside:mailFrom, the pace from curbside:mailSendRate', () => {
    const app = curbside.testApp({
      context: {
        'curbside:mailFrom': 'Lincoln Schools <pickup@lincoln.example>',
        'curbside:mailSendRate': 40,
      },
    });
    const built = new CurbsideStack(app, 'CurbsideMail', { webDist: curbside.webDist });
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
});
