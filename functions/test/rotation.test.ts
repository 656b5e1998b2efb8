import {
  CloudFrontClient,
  GetDistributionConfigCommand,
  type GetDistributionConfigCommandOutput,
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
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { type RotationClients, rotate } from '../src/rotation/origin-secret';

/** The origin secret's rotation, against mocked Secrets Manager and CloudFront (neither has a local emulator). */
const secretsMock = mockClient(SecretsManagerClient);
const cloudFrontMock = mockClient(CloudFrontClient);
const clients: RotationClients = {
  secrets: new SecretsManagerClient({ region: 'us-east-1' }),
  cloudFront: new CloudFrontClient({ region: 'us-east-1' }),
  distributionId: 'E123',
};
const SecretId = 'arn:aws:secretsmanager:us-east-1:111122223333:secret:OriginSecret-AbCdEf';
const token = 'token-2';

const distribution = (value: string): GetDistributionConfigCommandOutput => ({
  $metadata: {},
  ETag: 'etag-1',
  DistributionConfig: {
    CallerReference: 'ref',
    Comment: 'Curbside',
    Enabled: true,
    DefaultCacheBehavior: { TargetOriginId: 's3', ViewerProtocolPolicy: 'redirect-to-https' },
    Origins: {
      Quantity: 3,
      Items: [
        { Id: 's3', DomainName: 'bucket.s3.amazonaws.com', CustomHeaders: { Quantity: 0, Items: [] } },
        {
          Id: 'http',
          DomainName: 'abc.execute-api.us-east-1.amazonaws.com',
          CustomHeaders: { Quantity: 1, Items: [{ HeaderName: ORIGIN_SECRET_HEADER, HeaderValue: value }] },
        },
        {
          Id: 'ws',
          DomainName: 'def.execute-api.us-east-1.amazonaws.com',
          CustomHeaders: { Quantity: 1, Items: [{ HeaderName: ORIGIN_SECRET_HEADER, HeaderValue: value }] },
        },
      ],
    },
  },
});

beforeEach(() => {
  secretsMock.reset();
  cloudFrontMock.reset();
  secretsMock.on(DescribeSecretCommand).resolves({
    RotationEnabled: true,
    VersionIdsToStages: { 'token-1': ['AWSCURRENT'], [token]: ['AWSPENDING'] },
  });
  secretsMock
    .on(GetSecretValueCommand, { VersionStage: 'AWSPENDING' })
    .resolves({ SecretString: 'new-value' });
});
afterAll(() => {
  secretsMock.restore();
  cloudFrontMock.restore();
});

describe('rotating the origin secret', () => {
  it('creates a random pending value', async () => {
    secretsMock
      .on(GetSecretValueCommand, { VersionStage: 'AWSPENDING' })
      .rejects(Object.assign(new Error('none'), { name: 'ResourceNotFoundException' }));
    secretsMock.on(GetRandomPasswordCommand).resolves({ RandomPassword: 'r'.repeat(48) });
    await rotate({ Step: 'createSecret', SecretId, ClientRequestToken: token }, clients);
    expect(secretsMock.commandCalls(PutSecretValueCommand)[0]?.args[0].input).toEqual({
      SecretId,
      ClientRequestToken: token,
      SecretString: 'r'.repeat(48),
      VersionStages: ['AWSPENDING'],
    });
  });

  it('has CloudFront send the pending value to both APIs, and nowhere else', async () => {
    cloudFrontMock.on(GetDistributionConfigCommand).resolves(distribution('old-value'));
    await rotate({ Step: 'setSecret', SecretId, ClientRequestToken: token }, clients);
    const update = cloudFrontMock.commandCalls(UpdateDistributionCommand)[0]?.args[0].input;
    expect(update?.IfMatch).toBe('etag-1');
    const origins = update?.DistributionConfig?.Origins?.Items ?? [];
    expect(origins.map((o) => o.CustomHeaders?.Items?.map((h) => h.HeaderValue))).toEqual([
      [],
      ['new-value'],
      ['new-value'],
    ]);
  });

  it('tests that the distribution sends it, then makes it current', async () => {
    cloudFrontMock.on(GetDistributionConfigCommand).resolves(distribution('old-value'));
    await expect(
      rotate({ Step: 'testSecret', SecretId, ClientRequestToken: token }, clients),
    ).rejects.toThrow(/does not send the pending origin secret/);
    cloudFrontMock.on(GetDistributionConfigCommand).resolves(distribution('new-value'));
    await rotate({ Step: 'testSecret', SecretId, ClientRequestToken: token }, clients);
    await rotate({ Step: 'finishSecret', SecretId, ClientRequestToken: token }, clients);
    expect(secretsMock.commandCalls(UpdateSecretVersionStageCommand)[0]?.args[0].input).toEqual({
      SecretId,
      VersionStage: 'AWSCURRENT',
      MoveToVersionId: token,
      RemoveFromVersionId: 'token-1',
    });
  });
});
