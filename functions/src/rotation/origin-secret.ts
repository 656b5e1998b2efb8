import {
  CloudFrontClient,
  type DistributionConfig,
  GetDistributionConfigCommand,
  UpdateDistributionCommand,
} from '@aws-sdk/client-cloudfront';
import {
  DescribeSecretCommand,
  GetRandomPasswordCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  SecretsManagerClient,
  UpdateSecretVersionStageCommand,
} from '@aws-sdk/client-secrets-manager';
import { ORIGIN_SECRET_HEADER } from '@curbside/api';
import { config as env } from '../lib/config';

/**
 * Rotates the origin secret (see `lib/edge.ts`), as Secrets Manager's rotation
 * steps call it:
 * 1. createSecret: a new random value, staged AWSPENDING;
 * 2. setSecret: CloudFront sends the new value to the APIs (every origin that
 *    carries the header) — the handlers accept pending values already;
 * 3. testSecret: the distribution's configuration holds the new value;
 * 4. finishSecret: the new value becomes AWSCURRENT (the old one AWSPREVIOUS,
 *    still accepted while the edges switch over).
 */
export interface RotationEvent {
  Step: 'createSecret' | 'setSecret' | 'testSecret' | 'finishSecret';
  SecretId: string;
  ClientRequestToken: string;
}

export interface RotationClients {
  secrets: SecretsManagerClient;
  cloudFront: CloudFrontClient;
  distributionId: string;
}

const defaultClients = (): RotationClients => ({
  secrets: new SecretsManagerClient({}),
  cloudFront: new CloudFrontClient({ region: 'us-east-1' }),
  distributionId: env.distributionId,
});

const pendingOrStageValue = async (
  secrets: SecretsManagerClient,
  secretId: string,
  token: string,
  stage: string,
) => {
  const { SecretString } = await secrets.send(
    new GetSecretValueCommand({ SecretId: secretId, VersionId: token, VersionStage: stage }),
  );
  if (!SecretString) throw new Error(`Secret ${secretId} version ${token} has no value`);
  return SecretString;
};

/** The origins that carry the header, with it set to `value`; answers how many. */
const setHeader = (config: DistributionConfig, value: string): number => {
  let set = 0;
  for (const origin of config.Origins?.Items ?? []) {
    for (const header of origin.CustomHeaders?.Items ?? []) {
      if (header.HeaderName?.toLowerCase() === ORIGIN_SECRET_HEADER) {
        header.HeaderValue = value;
        set++;
      }
    }
  }
  return set;
};

export const rotate = async (event: RotationEvent, clients: RotationClients): Promise<void> => {
  const { secrets, cloudFront, distributionId } = clients;
  const { SecretId, ClientRequestToken: token } = event;
  const description = await secrets.send(new DescribeSecretCommand({ SecretId }));
  const stages = description.VersionIdsToStages?.[token];
  if (!description.RotationEnabled) throw new Error(`Secret ${SecretId} does not have rotation enabled`);
  if (!stages) throw new Error(`Secret version ${token} has no stage for rotation of ${SecretId}`);
  if (stages.includes('AWSCURRENT')) return; // already done
  if (!stages.includes('AWSPENDING'))
    throw new Error(`Secret version ${token} is not pending for ${SecretId}`);

  switch (event.Step) {
    case 'createSecret': {
      try {
        await pendingOrStageValue(secrets, SecretId, token, 'AWSPENDING');
        return;
      } catch (error) {
        if ((error as { name?: string }).name !== 'ResourceNotFoundException') throw error;
      }
      const { RandomPassword } = await secrets.send(
        new GetRandomPasswordCommand({ PasswordLength: 48, ExcludePunctuation: true }),
      );
      await secrets.send(
        new PutSecretValueCommand({
          SecretId,
          ClientRequestToken: token,
          SecretString: RandomPassword,
          VersionStages: ['AWSPENDING'],
        }),
      );
      return;
    }
    case 'setSecret': {
      const value = await pendingOrStageValue(secrets, SecretId, token, 'AWSPENDING');
      const { DistributionConfig: config, ETag } = await cloudFront.send(
        new GetDistributionConfigCommand({ Id: distributionId }),
      );
      if (!config) throw new Error(`Distribution ${distributionId} has no configuration`);
      if (setHeader(config, value) === 0)
        throw new Error(`No origin of ${distributionId} carries the origin secret`);
      await cloudFront.send(
        new UpdateDistributionCommand({ Id: distributionId, IfMatch: ETag, DistributionConfig: config }),
      );
      return;
    }
    case 'testSecret': {
      const value = await pendingOrStageValue(secrets, SecretId, token, 'AWSPENDING');
      const { DistributionConfig: config } = await cloudFront.send(
        new GetDistributionConfigCommand({ Id: distributionId }),
      );
      const headers = (config?.Origins?.Items ?? []).flatMap((origin) =>
        (origin.CustomHeaders?.Items ?? []).filter(
          (h) => h.HeaderName?.toLowerCase() === ORIGIN_SECRET_HEADER,
        ),
      );
      if (headers.length === 0 || headers.some((h) => h.HeaderValue !== value)) {
        throw new Error(`Distribution ${distributionId} does not send the pending origin secret yet`);
      }
      return;
    }
    case 'finishSecret': {
      const current = Object.entries(description.VersionIdsToStages ?? {}).find(([, s]) =>
        s.includes('AWSCURRENT'),
      )?.[0];
      await secrets.send(
        new UpdateSecretVersionStageCommand({
          SecretId,
          VersionStage: 'AWSCURRENT',
          MoveToVersionId: token,
          ...(current ? { RemoveFromVersionId: current } : {}),
        }),
      );
      return;
    }
  }
};

let clients: RotationClients | undefined;

/** The rotation function Secrets Manager invokes for each step. */
export const handler = async (event: RotationEvent): Promise<void> => {
  clients ??= defaultClients();
  await rotate(event, clients);
};
