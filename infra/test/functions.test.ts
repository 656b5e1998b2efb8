import { FUNCTION_ACCESS, functionPlan, IMPORT_JOBS } from '@curbside/api';
import { describe, expect, it } from 'vitest';
import { inspect, synthesizeOnce } from './synth';

/** The functions of the function plan and the import jobs (`lib/functions.ts`): access, memory, live posts. */
const curbside = synthesizeOnce();
const {
  logicalId,
  ofType,
  apiLogicalId,
  tableLogicalId,
  statementsOfRole,
  roleOf,
  actionsOn,
  environmentOf,
  invokeConfigOf,
  rolesInvoking,
} = inspect(curbside);

describe('functions', () => {
  const plans = functionPlan();

  it('one per area with routes, one for the WebSocket routes, one for the schedules (and the secret rotation, the import jobs, the mail sender)', () => {
    expect([...curbside.stack.functions.keys()].sort()).toEqual(plans.map((p) => p.id).sort());
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
    curbside.template.resourceCountIs('AWS::Lambda::Function', plans.length + 4);
  });

  it('the import-jobs function: 15 minutes, invoked asynchronously by the import routes, the schedules and itself, never retried by Lambda', () => {
    const jobs = logicalId(IMPORT_JOBS.id);
    const fn = curbside.resources[jobs]!.Properties;
    expect(fn.Timeout).toBe(900);
    expect(fn.MemorySize).toBe(IMPORT_JOBS.access.memoryMb);
    expect(invokeConfigOf(jobs).Properties.MaximumRetryAttempts).toBe(0);
    expect(rolesInvoking(jobs)).toEqual(['http-sis', 'scheduled', IMPORT_JOBS.id].map(roleOf).sort());
    expect(environmentOf('http-sis').IMPORT_JOBS_FUNCTION).toEqual({ Ref: jobs });
    expect(environmentOf('scheduled').IMPORT_JOBS_FUNCTION).toEqual({ Ref: jobs });
  });

  it.each(plans.map((p) => [p.id, p] as const))(
    '%s: Node.js 22 on arm64, its memory, TABLE_NAME, a log group with retention',
    (id, plan) => {
      const fn = curbside.resources[logicalId(id)]!.Properties;
      expect(fn.Runtime).toBe('nodejs22.x');
      expect(fn.Architectures).toEqual(['arm64']);
      expect(fn.Handler).toBe('index.handler');
      expect(fn.MemorySize).toBe(plan.access.memoryMb);
      expect(fn.Timeout).toBe(plan.access.timeoutSeconds);
      expect(fn.Environment.Variables.TABLE_NAME).toEqual({ Ref: tableLogicalId(true) });
      expect(curbside.resources[fn.LoggingConfig.LogGroup.Ref]!.Properties.RetentionInDays).toBeGreaterThan(
        0,
      );
    },
  );

  it('the auth function has the memory scrypt at N=2^17 needs (a full vCPU)', () => {
    expect(curbside.resources[logicalId('http-auth')]!.Properties.MemorySize).toBeGreaterThanOrEqual(1769);
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
      expect(curbside.resources[roleOf(id)]!.Properties.ManagedPolicyArns).toBeUndefined();
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
    // Deactivation and new passwords close the user's live connections; a parent unlinked from a
    // child stops hearing of the child on their open pages (their school rows updated, ADR 0027).
    expect(FUNCTION_ACCESS.admin.connections).toEqual(['Query', 'GetItem', 'BatchWriteItem', 'UpdateItem']);
    expect(FUNCTION_ACCESS.admin.publishes).toBe(true);
  });
});
