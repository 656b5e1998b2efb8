import { createHash } from 'node:crypto';
import { ConflictError, sleep, ValidationError } from '@curbside/domain';
import { idempotency, type StoredAnswer } from '@curbside/store';
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { busLinkOf, userOf } from './auth';
import { db } from './context';
import { headerIn } from './headers';
import { log } from './log';
import { bodyText } from './request-body';

type HttpEvent = APIGatewayProxyEventV2;
type HttpResult = APIGatewayProxyStructuredResultV2;

/** The request header naming one user action; a retry of that action sends the same one. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** On a replayed answer: the first answer, sent again, nothing applied. */
export const IDEMPOTENT_REPLAY_HEADER = 'idempotent-replayed';

const KEY_FORMAT = /^[A-Za-z0-9_-]{8,128}$/;
/** How long a retry waits for a racing first attempt with the same key to finish. */
const WAIT_MS = 5000;
const POLL_MS = 50;

/** The same key sent again with another route or body: 422, nothing applied. */
export class IdempotencyKeyReusedError extends Error {
  override name = 'IdempotencyKeyReusedError';
  constructor() {
    super('This Idempotency-Key was already used for a different request');
  }
}

interface Claim {
  caller: string;
  key: string;
}
/** Claims held by this invocation, to complete or give back once answered. */
const claims = new WeakMap<HttpEvent, Claim>();
/** First answers found for a retry: the handler sends them instead of applying anything. */
const replays = new WeakMap<HttpEvent, HttpResult>();

/** The stored first answer for this request, when it is a retry. */
export const replayOf = (event: HttpEvent): HttpResult | undefined => replays.get(event);

/** Whose key it is: the signed-in user or the bus link; none on public routes (no key is kept). */
const callerOf = (event: HttpEvent): string | undefined => {
  const user = userOf(event);
  if (user) return `USER#${user.id}`;
  const link = busLinkOf(event);
  if (link) return `BUSLINK#${link.schoolId}#${link.kind}`;
  return undefined;
};

/**
 * What a key was first used for: the route, the path (its ids), the query
 * string (a super admin's `?schoolId=`: issue 49) and the body as sent.
 */
const fingerprintOf = (event: HttpEvent) => {
  return createHash('sha256')
    .update(`${event.routeKey}\n${event.rawPath}\n${event.rawQueryString ?? ''}\n${bodyText(event) ?? ''}`)
    .digest('base64url');
};

const replay = (answer: StoredAnswer): HttpResult => ({
  statusCode: answer.statusCode,
  headers: { ...answer.headers, [IDEMPOTENT_REPLAY_HEADER]: 'true' },
  body: answer.body,
});

/**
 * Makes a mutation sent with an `Idempotency-Key` apply once: the first
 * request claims the key (a conditional put), its answer is kept 24 hours,
 * and a retry by the same caller gets that answer again without anything
 * applied; a retry racing the first waits for its answer. The same key with
 * another route or body is refused (422). Requests without the header, reads
 * and public routes are untouched. Runs after authorization and validation
 * (a refused request claims nothing).
 */
export const idempotentMutations = (): MiddlewareObj<HttpEvent, HttpResult> => {
  const finish = async (event: HttpEvent, response: HttpResult | null | undefined) => {
    const claim = claims.get(event);
    if (!claim) return;
    claims.delete(event);
    try {
      if (
        response &&
        response.statusCode !== undefined &&
        response.statusCode < 500 &&
        response.statusCode !== 429
      ) {
        const headers = Object.fromEntries(
          Object.entries(response.headers ?? {}).map(([name, value]) => [name, String(value)]),
        );
        await idempotency.complete(db, claim.caller, claim.key, {
          statusCode: response.statusCode,
          headers,
          body: typeof response.body === 'string' ? response.body : '',
        });
      } else {
        await idempotency.release(db, claim.caller, claim.key);
      }
    } catch (error) {
      // The change itself is done; a retry would find the claim in progress and wait, then be told to try again.
      log('error', 'idempotency record not kept', {
        route: event.routeKey,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  };
  return {
    before: async ({ event }) => {
      if (event.requestContext.http.method === 'GET') return;
      const key = headerIn(event.headers, IDEMPOTENCY_KEY_HEADER)?.trim();
      if (!key) return;
      if (!KEY_FORMAT.test(key)) {
        throw new ValidationError('Idempotency-Key must be 8 to 128 letters, digits, dashes or underscores');
      }
      const caller = callerOf(event);
      if (!caller) return;
      const fingerprint = fingerprintOf(event);
      const deadline = Date.now() + WAIT_MS;
      for (;;) {
        const result = await idempotency.claim(db, caller, key, fingerprint);
        if (result.claimed) {
          claims.set(event, { caller, key });
          return;
        }
        let record = result.record;
        // A racing first attempt: wait for its answer (or for it to give the key back).
        while (
          record?.state === 'in_progress' &&
          record.fingerprint === fingerprint &&
          Date.now() < deadline
        ) {
          await sleep(POLL_MS);
          record = await idempotency.get(db, caller, key);
        }
        if (record && record.fingerprint !== fingerprint) throw new IdempotencyKeyReusedError();
        if (record?.state === 'completed') {
          replays.set(event, replay(record.answer));
          return;
        }
        if (record?.state === 'in_progress') {
          throw new ConflictError('This change is still being applied. Try again in a moment.');
        }
        // Given back (the first attempt failed) or expired: claim it again, while there is time.
        if (Date.now() >= deadline)
          throw new ConflictError('This change is still being applied. Try again in a moment.');
      }
    },
    after: async (request) => {
      await finish(request.event, request.response);
    },
    onError: async (request) => {
      await finish(request.event, request.response);
    },
  };
};
