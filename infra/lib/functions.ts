import {
  type FunctionAccess,
  type FunctionPlan,
  IMPORT_JOBS,
  routeKeyOf,
  WS_ROUTES,
  type WsRouteKey,
} from '@curbside/api';
import { Duration } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { bindTables, HandlerFunction } from './handler-function';
import { withDeadLetterQueue } from './operations';
import { StackPart } from './part';
import type { Tables } from './tables';

/** A function's description: what it serves. */
const describe = (plan: FunctionPlan): string => {
  const text =
    plan.kind === 'http'
      ? `Curbside ${plan.area}: ${plan.routes.map(routeKeyOf).join(', ')}`
      : plan.kind === 'ws'
        ? `Curbside live connection: ${Object.keys(WS_ROUTES as Record<WsRouteKey, string>).join(', ')}`
        : `Curbside schedules: ${plan.schedules.map((s) => s.name).join(', ')}`;
  // Lambda descriptions hold at most 256 characters.
  return text.length > 256 ? `${text.slice(0, 253)}...` : text;
};

/** The wildcard a Query grant carries: the data table's indexes. */
export const INDEX_WILDCARD_FINDING = {
  id: 'AwsSolutions-IAM5',
  reason:
    'Query grants include the data table\'s indexes (table ARN + "/index/*"): the store names the index of each access pattern in its README.',
  appliesTo: [{ regex: '/^Resource::<Table[A-Za-z0-9]+\\.Arn>\\/index\\/\\*$/g' }],
};

/** An asynchronous function of `packages/api` (`IMPORT_JOBS`, `MAIL_SENDER`). */
interface AsyncFunctionSpec {
  id: string;
  retryAttempts: number;
  access: FunctionAccess & { timeoutSeconds: number; memoryMb: number };
}

/**
 * A function invoked asynchronously (the import jobs, the mail sender): its access to the
 * tables, its dead-letter queue (`{deadLetterId}DeadLetters`, after `spec.retryAttempts`
 * retries by Lambda) and the right to invoke itself, to continue before its 15-minute limit
 * (a separate policy `{deadLetterId}Continue`: the function's own policy cannot name the
 * function). Its starters are let in with {@link AsyncFunction.letStart}.
 */
export class AsyncFunction {
  readonly fn: lambda.Function;
  readonly deadLetterQueue: sqs.Queue;
  private readonly variable: string;

  constructor(
    scope: Construct,
    spec: AsyncFunctionSpec,
    options: {
      /** `ImportJobs`, `MailSender`: names its queue and its continue policy. */
      name: string;
      /** The variable that tells a starter the function's name (`IMPORT_JOBS_FUNCTION`). */
      variable: string;
      description: string;
      functionsDist: string;
      tables: Tables;
      reservedConcurrentExecutions?: number;
    },
  ) {
    this.fn = new HandlerFunction(scope, spec.id, {
      bundleDir: `${options.functionsDist}/${spec.id}`,
      timeout: Duration.seconds(spec.access.timeoutSeconds),
      memorySize: spec.access.memoryMb,
      description: options.description,
      ...(options.reservedConcurrentExecutions === undefined
        ? {}
        : { reservedConcurrentExecutions: options.reservedConcurrentExecutions }),
    }).fn;
    bindTables(this.fn, spec.access, options.tables);
    this.deadLetterQueue = withDeadLetterQueue(this.fn, options.name, spec.retryAttempts);
    this.variable = options.variable;
    new iam.Policy(scope, `${options.name}Continue`, {
      roles: [this.fn.role as iam.IRole],
      statements: [
        new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.fn.functionArn] }),
      ],
    });
  }

  /** Lets `starter` invoke the function (the function itself, not its versions: `grantInvoke` would add `:*`). */
  letStart(starter: lambda.Function): void {
    starter.addToRolePolicy(
      new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.fn.functionArn] }),
    );
    starter.addEnvironment(this.variable, this.fn.functionName);
  }
}

export interface FunctionsProps {
  /** The route table's function plan. */
  plans: readonly FunctionPlan[];
  /** Bundles from `functions/build.ts`, one folder per function id. */
  functionsDist: string;
  tables: Tables;
}

/**
 * One function per entry of the function plan (one per area with routes, `ws`, `scheduled`),
 * each with only its own access to the tables, and the import-jobs function: invoked
 * asynchronously by the import routes, the nightly sync and itself.
 */
export class Functions extends StackPart {
  /** The function of each plan id (`http-carLine`, `ws`, `scheduled`). */
  readonly byPlan: ReadonlyMap<string, lambda.Function>;
  readonly importJobs: AsyncFunction;

  constructor(scope: Construct, id: string, props: FunctionsProps) {
    super(scope, id);
    const { plans, functionsDist, tables } = props;
    const byPlan = new Map<string, lambda.Function>();
    for (const plan of plans) {
      const handler = new HandlerFunction(this, plan.id, {
        bundleDir: `${functionsDist}/${plan.id}`,
        timeout: Duration.seconds(plan.access.timeoutSeconds),
        memorySize: plan.access.memoryMb,
        description: describe(plan),
      });
      bindTables(handler.fn, plan.access, tables);
      byPlan.set(plan.id, handler.fn);
    }
    this.byPlan = byPlan;

    // A run that fails marks its job failed (to be resumed); Lambda must not run it again on its own,
    // and hands it to the function's dead-letter queue.
    this.importJobs = new AsyncFunction(this, IMPORT_JOBS, {
      name: 'ImportJobs',
      variable: 'IMPORT_JOBS_FUNCTION',
      description: 'Curbside: runs student-information (Clever) import jobs',
      functionsDist,
      tables,
    });
    for (const starter of this.importStarters(plans)) this.importJobs.letStart(starter);

    // Only the grants the route table's plan asks for carry wildcards, each with its reason.
    for (const fn of [...byPlan.values(), this.importJobs.fn]) {
      NagSuppressions.addResourceSuppressions(
        fn.role as iam.IRole,
        [
          INDEX_WILDCARD_FINDING,
          {
            id: 'AwsSolutions-IAM5',
            reason:
              'Posting to and closing a WebSocket client needs execute-api:ManageConnections on "{api}/ws/*/@connections/*": connection ids are only known at run time; the grant is limited to this API\'s ws stage.',
            appliesTo: [
              { regex: '/^Resource::arn:<AWS::Partition>:execute-api:.*\\/ws\\/\\*\\/@connections\\/\\*$/g' },
            ],
          },
        ],
        true,
      );
    }
  }

  /** The function of a plan id; throws for an id the plan does not have. */
  fn(planId: string): lambda.Function {
    const found = this.byPlan.get(planId);
    if (!found) throw new Error(`No function ${planId} in the function plan`);
    return found;
  }

  /**
   * The functions that start imports or read Clever's district tokens: the SIS area's
   * (the import page) and the schedules' (the nightly sync).
   */
  importStarters(plans: readonly FunctionPlan[]): lambda.Function[] {
    return [
      ...plans.filter((plan) => plan.kind === 'http' && plan.area === 'sis'),
      ...plans.filter((plan) => plan.kind === 'scheduled'),
    ].map((plan) => this.fn(plan.id));
  }
}
