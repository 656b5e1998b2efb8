import { type FunctionPlan, MAIL_SENDER } from '@curbside/api';
import type * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { AsyncFunction, INDEX_WILDCARD_FINDING } from './functions';
import { bindMail } from './handler-function';
import { StackPart } from './part';
import type { Tables } from './tables';

/** The routes that queue mail: emailed invites, and a parent's password-reset link (issue 50). */
const MAILING_ROUTES = new Set(['emailParentInvites', 'forgotParentPassword']);

export interface MailProps {
  plans: readonly FunctionPlan[];
  /** The function of a plan id. */
  functionOf: (planId: string) => lambda.Function;
  functionsDist: string;
  tables: Tables;
  /** The sender, a verified SES identity (context `curbside:mailFrom`). */
  from: string;
  /** Messages a second at most (context `curbside:mailSendRate`). */
  sendRate: number;
}

/**
 * Email (parent invites, password resets): the sender is a verified SES identity named by CDK
 * context curbside:mailFrom; only the function that sends gets it and ses:SendEmail. The email
 * routes queue a mail run and invoke the mail sender asynchronously; the sender runs one
 * invocation at a time (reserved concurrency 1), paced at curbside:mailSendRate messages a
 * second (default 10, under SES's default account rate of 14), continuing itself before its
 * 15-minute limit.
 */
export class Mail extends StackPart {
  readonly sender: AsyncFunction;

  constructor(scope: Construct, id: string, props: MailProps) {
    super(scope, id);
    if (!(props.sendRate > 0)) throw new Error('curbside:mailSendRate must be a positive number');
    // A failed invocation is run again (twice, Lambda's default: claimed messages are never sent
    // twice), then handed to the function's dead-letter queue.
    this.sender = new AsyncFunction(this, MAIL_SENDER, {
      name: 'MailSender',
      variable: 'MAIL_SENDER_FUNCTION',
      description: 'Curbside: sends emailed parent invites through SES, paced under its sending rate',
      functionsDist: props.functionsDist,
      tables: props.tables,
      reservedConcurrentExecutions: 1,
    });
    const sender = this.sender.fn;
    sender.addEnvironment('MAIL_SEND_RATE', String(props.sendRate));
    for (const plan of props.plans) {
      if (plan.access.sendsEmail) bindMail(props.functionOf(plan.id), props.from);
    }
    bindMail(sender, props.from);
    for (const plan of props.plans) {
      if (plan.kind !== 'http' || !plan.routes.some((route) => MAILING_ROUTES.has(route.name))) continue;
      this.sender.letStart(props.functionOf(plan.id));
    }

    NagSuppressions.addResourceSuppressions(
      sender.role as iam.IRole,
      [
        {
          ...INDEX_WILDCARD_FINDING,
          reason:
            'Query grants include the data table\'s indexes (table ARN + "/index/*"), as for every function that queries.',
        },
      ],
      true,
    );
  }
}
