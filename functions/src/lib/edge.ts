import { timingSafeEqual } from 'node:crypto';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { ORIGIN_SECRET_HEADER } from '@curbside/api';
import { quietSdkLogger } from '@curbside/store';
import type { MiddlewareObj } from '@middy/core';
import { isAllowedOrigin } from './auth';
import { config } from './config';
import { headerIn } from './headers';
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
  const header = headerIn(headers, ORIGIN_SECRET_HEADER);
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

/** A request refused at the edge: it went around CloudFront, or (where checked) came from another site's page. */
export class RefusedAtEdgeError extends Error {
  override name = 'RefusedAtEdgeError';
}

/** What the edge checks read of a request, HTTP or WebSocket. */
interface EdgeEvent {
  headers?: Record<string, string | undefined>;
  routeKey?: string;
  requestContext: { routeKey?: string };
}

/**
 * The first checks of every chain, HTTP's and `$connect`'s: only a request
 * CloudFront forwarded (with the origin secret) goes further; with
 * `sameSite`, a browser page of another site is refused as well (a
 * WebSocket carries the session cookie on connect: HTTP checks the Origin
 * of mutations in `authorize` instead). Refused: `RefusedAtEdgeError`, which
 * each chain answers 403.
 */
export const edgeChecks = <E extends EdgeEvent, R>({ sameSite = false } = {}): MiddlewareObj<E, R> => ({
  before: async ({ event }) => {
    const route = event.routeKey ?? event.requestContext.routeKey;
    if (!(await cameThroughCloudFront(event.headers))) {
      logAroundCloudFront(route);
      throw new RefusedAtEdgeError();
    }
    const origin = headerIn(event.headers, 'origin');
    if (sameSite && !isAllowedOrigin(origin, [headerIn(event.headers, 'host')])) {
      log('warn', 'refused: a page of another site', { route, origin });
      throw new RefusedAtEdgeError();
    }
  },
});

/** Forgets the cached values (tests). */
export const forgetOriginSecret = () => {
  values = [];
  fetchedAt = 0;
  client = undefined;
};
