import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { quietSdkLogger } from '@curbside/store';

/**
 * Clever single sign-on settings, read when used (a deployment without them
 * has no production sign-in; the laptop runtime points them at the fake
 * Clever server).
 *
 * - `CLEVER_CLIENT_ID`: the app's client id; unset, single sign-on is off.
 * - `CLEVER_OAUTH_URL` (default https://clever.com): authorize and tokens.
 * - `CLEVER_API_URL` (default https://api.clever.com): `/v3.0/me`, `/v3.0/users/{id}`.
 * - The client secret: `CLEVER_CLIENT_SECRET_ARN` (Secrets Manager, in AWS),
 *   else `CLEVER_CLIENT_SECRET` (the laptop and tests).
 */
export interface CleverSso {
  clientId: string;
  oauthUrl: string;
  apiUrl: string;
}

const env = (name: string) => {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
};

export const cleverSso = (): CleverSso | undefined => {
  const clientId = env('CLEVER_CLIENT_ID');
  if (!clientId) return undefined;
  return {
    clientId,
    oauthUrl: env('CLEVER_OAUTH_URL') ?? 'https://clever.com',
    apiUrl: env('CLEVER_API_URL') ?? 'https://api.clever.com',
  };
};

const SECRET_FRESH_MS = 5 * 60_000;
let cached: { value: string; at: number } | undefined;
let client: SecretsManagerClient | undefined;

/** The client secret: from Secrets Manager (cached five minutes) or the environment. */
export const cleverSsoSecret = async (): Promise<string> => {
  const arn = env('CLEVER_CLIENT_SECRET_ARN');
  if (!arn) return env('CLEVER_CLIENT_SECRET') ?? '';
  if (cached && Date.now() - cached.at < SECRET_FRESH_MS) return cached.value;
  client ??= new SecretsManagerClient({ logger: quietSdkLogger });
  const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: arn }));
  cached = { value: SecretString ?? '', at: Date.now() };
  return cached.value;
};
