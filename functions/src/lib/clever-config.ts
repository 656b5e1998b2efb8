import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { quietSdkLogger } from '@curbside/store';
import { config } from './config';

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
 * - The roster import's district tokens: see `cleverDistrictTokens`.
 */
export interface CleverSso {
  clientId: string;
  oauthUrl: string;
  apiUrl: string;
}

export const cleverSso = (): CleverSso | undefined => {
  const { clientId, oauthUrl, apiUrl } = config.clever;
  return clientId ? { clientId, oauthUrl, apiUrl } : undefined;
};

const SECRET_FRESH_MS = 5 * 60_000;
const cached = new Map<string, { value: string; at: number }>();
let client: SecretsManagerClient | undefined;

/** A secret's text: from Secrets Manager when `{name}_ARN` is set (cached five minutes), else `{name}`. */
const secret = async (name: 'CLEVER_CLIENT_SECRET' | 'CLEVER_DISTRICT_TOKENS'): Promise<string> => {
  const { arn, value } = config.clever.secret(name);
  if (!arn) return value ?? '';
  const hit = cached.get(arn);
  if (hit && Date.now() - hit.at < SECRET_FRESH_MS) return hit.value;
  client ??= new SecretsManagerClient({ logger: quietSdkLogger });
  const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: arn }));
  cached.set(arn, { value: SecretString ?? '', at: Date.now() });
  return SecretString ?? '';
};

/** The client secret: from Secrets Manager (cached five minutes) or the environment. */
export const cleverSsoSecret = (): Promise<string> => secret('CLEVER_CLIENT_SECRET');

/** The Data API's base URL (`CLEVER_API_URL`, default https://api.clever.com). */
export const cleverApiUrl = (): string => config.clever.apiUrl;

/**
 * The district-app tokens, one per Clever district that shared its data with
 * the app: `CLEVER_DISTRICT_TOKENS_ARN` (Secrets Manager, in AWS) or
 * `CLEVER_DISTRICT_TOKENS` (the laptop and tests), JSON
 * `{ "<clever district id>": "<token>" }`. Empty: no district is connected.
 */
export const cleverDistrictTokens = async (): Promise<Map<string, string>> => {
  const text = (await secret('CLEVER_DISTRICT_TOKENS')).trim();
  if (!text) return new Map();
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      return new Map(
        Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      );
    }
  } catch {}
  throw new Error('CLEVER_DISTRICT_TOKENS must be a JSON object of Clever district ids to tokens');
};
