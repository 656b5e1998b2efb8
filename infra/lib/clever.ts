import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { StackPart } from './part';

export interface CleverProps {
  /** The Clever app's client id (context `curbside:cleverClientId`). */
  clientId: string;
  /** The function of the sign-in routes (`http-auth`). */
  auth: lambda.Function;
  /** The functions that read the district tokens: the import page, the sync and the jobs. */
  tokenReaders: readonly lambda.Function[];
}

/**
 * Clever single sign-on, when the deployment names its Clever app: the client secret lives in
 * Secrets Manager (set its value after the first deploy), read by the auth function only; and
 * the roster import's district-app tokens.
 */
export class Clever extends StackPart {
  readonly clientSecret: secretsmanager.Secret;
  readonly districtTokens: secretsmanager.Secret;

  constructor(scope: Construct, id: string, props: CleverProps) {
    super(scope, id);
    this.clientSecret = new secretsmanager.Secret(this, 'CleverClientSecret', {
      description:
        "Curbside: the Clever app's client secret (single sign-on); set it from Clever's dashboard",
    });
    props.auth.addEnvironment('CLEVER_CLIENT_ID', props.clientId);
    props.auth.addEnvironment('CLEVER_CLIENT_SECRET_ARN', this.clientSecret.secretArn);
    this.clientSecret.grantRead(props.auth);
    NagSuppressions.addResourceSuppressions(this.clientSecret, [
      {
        id: 'AwsSolutions-SMG4',
        reason:
          "Clever issues the client secret: it is replaced in Clever's dashboard, not by a rotation Lambda",
      },
    ]);

    // The roster import's district-app tokens, JSON { "<clever district id>": "<token>" }: set
    // from Clever's dashboard as districts connect; read by the import page, the sync and the jobs.
    this.districtTokens = new secretsmanager.Secret(this, 'CleverDistrictTokens', {
      description:
        "Curbside: Clever district-app tokens, JSON { districtId: token } (from Clever's dashboard)",
    });
    for (const reader of props.tokenReaders) {
      reader.addEnvironment('CLEVER_DISTRICT_TOKENS_ARN', this.districtTokens.secretArn);
      this.districtTokens.grantRead(reader);
    }
    NagSuppressions.addResourceSuppressions(this.districtTokens, [
      {
        id: 'AwsSolutions-SMG4',
        reason:
          'Clever issues the district tokens: a district revokes or reissues them in Clever, not by a rotation Lambda',
      },
    ]);
  }
}
