import { timingSafeEqual } from 'node:crypto';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { ORIGIN_SECRET_HEADER } from '@curbside/api';
import { quietSdkLogger } from '@curbside/store';
import { config } from './config';
import { log } from './log';

/**
 * Only CloudFront may reach the handlers. The APIs' own `execute-api`
 * endpoints stay public (CloudFront needs them as its origins), so CloudFront
 * adds a secret header to every request it forwards (`ORIGIN_SECRET_HEADER`),
 * its value kept in Secrets Manager and rotated; the handlers verify it
 * before anything else, above all before they trust the visitor address
 * CloudFront stamps. A request without it came around CloudFront: refused.
 *
 * During a rotation CloudFront's edges switch over within minutes, so the
 * current, pending and previous values all pass. Values are cached for five
 * minutes; a value no cached one matches refetches them (at most every 30 s).
 * Without `ORIGIN_SECRET_ARN` (the laptop runtime) nothing is checked.
 */
const STAGES = ['AWSCURRENT', 'AWSPENDING', 'AWSPREVIOUS'] as const;
const FRESH_MS = 5 * 60_000;
const REFETCH_AFTER_MS = 30_000;

let client: SecretsManagerClient | undefined;
let values: Buffer[] = [];
let fetchedAt = 0;
let fetching: Promise<void> | undefined;

const fetchValues = async (secretArn: string) => {
  client ??= new SecretsManagerClient({ logger: quietSdkLogger });
  const fetched = await Promise.all(
    STAGES.map(async (stage) => {
      try {
        const { SecretString } = await (client as SecretsManagerClient).send(
          new GetSecretValueCommand({ SecretId: secretArn, VersionStage: stage }),
        );
        return SecretString ? Buffer.from(SecretString) : undefined;
      } catch (error) {
        // No pending (or previous) version outside a rotation: nothing to accept there.
        if ((error as { name?: string }).name === 'ResourceNotFoundException') return undefined;
        throw error;
      }
    }),
  );
  values = fetched.flatMap((value) => (value ? [value] : []));
  fetchedAt = Date.now();
};

const refresh = (secretArn: string) => {
  fetching ??= fetchValues(secretArn).finally(() => {
    fetching = undefined;
  });
  return fetching;
};

const matches = (presented: Buffer) =>
  values.some((value) => value.length === presented.length && timingSafeEqual(value, presented));

/** Whether a request carries the origin secret (always true where none is configured). */
export const cameThroughCloudFront = async (
  headers: Record<string, string | undefined> | undefined,
  secretArn = config.originSecretArn,
): Promise<boolean> => {
  if (!secretArn) return true;
  const header = Object.entries(headers ?? {}).find(
    ([name]) => name.toLowerCase() === ORIGIN_SECRET_HEADER,
  )?.[1];
  if (!header) return false;
  const presented = Buffer.from(header);
  if (values.length === 0 || Date.now() - fetchedAt > FRESH_MS) await refresh(secretArn);
  if (matches(presented)) return true;
  // Rotated since the last fetch? Look again, but not on every stray request.
  if (Date.now() - fetchedAt > REFETCH_AFTER_MS) {
    await refresh(secretArn);
    return matches(presented);
  }
  return false;
};

/** Logs a request refused for not coming through CloudFront. */
export const logAroundCloudFront = (route: string | undefined) => {
  log('warn', 'refused: no origin secret, not through CloudFront', { route });
};

/** Forgets the cached values (tests). */
export const forgetOriginSecret = () => {
  values = [];
  fetchedAt = 0;
  client = undefined;
};
