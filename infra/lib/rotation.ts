import { ORIGIN_SECRET_ROTATION } from '@curbside/api';
import { Duration } from 'aws-cdk-lib';
import type * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { distributionArn, HandlerFunction } from './handler-function';
import { withDeadLetterQueue } from './operations';
import { StackPart } from './part';

/** How often CloudFront's origin secret is replaced. */
const ORIGIN_SECRET_ROTATION_DAYS = 30;

export interface RotationProps {
  /** The secret CloudFront adds to every request it forwards to the APIs. */
  secret: secretsmanager.Secret;
  /** The distribution that sends it. */
  distribution: cloudfront.Distribution;
  functionsDist: string;
}

/** The origin secret's rotation: a new value, sent by CloudFront, then made current, every 30 days. */
export class Rotation extends StackPart {
  readonly fn: lambda.Function;
  readonly deadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: RotationProps) {
    super(scope, id);
    this.fn = new HandlerFunction(this, ORIGIN_SECRET_ROTATION.id, {
      bundleDir: `${props.functionsDist}/${ORIGIN_SECRET_ROTATION.id}`,
      timeout: Duration.minutes(1),
      memorySize: 256,
      description: 'Curbside: rotates the origin secret CloudFront sends to the APIs',
    }).fn;
    this.fn.addEnvironment('DISTRIBUTION_ID', props.distribution.distributionId);
    this.fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['cloudfront:GetDistributionConfig', 'cloudfront:UpdateDistribution'],
        resources: [distributionArn(this, props.distribution.distributionId)],
      }),
    );
    this.deadLetterQueue = withDeadLetterQueue(
      this.fn,
      'OriginSecretRotation',
      ORIGIN_SECRET_ROTATION.retryAttempts,
    );
    props.secret.addRotationSchedule('Rotation', {
      rotationLambda: this.fn,
      automaticallyAfter: Duration.days(ORIGIN_SECRET_ROTATION_DAYS),
    });
    NagSuppressions.addResourceSuppressions(
      this.fn.role as iam.IRole,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'secretsmanager:GetRandomPassword has no resource to scope to (IAM allows only "*"); the rotation grants CDK adds are otherwise on the origin secret alone.',
          appliesTo: ['Resource::*'],
        },
      ],
      true,
    );
  }
}
