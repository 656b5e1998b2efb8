import { createHash } from 'node:crypto';
import { BULK_RELEASES, CAR_LINE_CHANGES } from '@curbside/api';
import { ConflictError, sleep, ValidationError } from '@curbside/domain';
import {
  IDEMPOTENCY_LEASE_MS,
  IdempotencyKeyTakenError,
  type IdempotencyRecord,
  idempotency,
  type StoredAnswer,
  type TransactionClaim,
} from '@curbside/store';
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { busLinkOf, userOf } from './auth';
import { db } from './context';
import { leavingBesideTheAnswer } from './deferred';
import { headerIn, JSON_HEADERS } from './headers';
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

/**
 * The keyed routes whose change is written by one TransactWriteItems (the
 * first the request writes): their key is claimed inside it (ADR 0027), not
 * by a PutItem of its own. Every other keyed route claims it first, as before.
 */
const CLAIMED_IN_THE_CHANGE: ReadonlySet<string> = new Set([...CAR_LINE_CHANGES, ...BULK_RELEASES]);

interface Claim {
  caller: string;
  key: string;
  fingerprint: string;
  /** Claimed by the change's own transaction (when it writes one). */
  inTransaction?: TransactionClaim;
  /** The change's fan-out, awaited beside the answer's keeping. */
  left: Promise<unknown>[];
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

/** How a replay makes again the part of an answer kept before its commit that only the commit told (by name). */
const refreshers = new Map<string, (answer: StoredAnswer) => Promise<StoredAnswer>>();

/**
 * Names how a replay of an answer kept in its change's claim (`answerInTheChange`)
 * makes its changing part again; a service module registers it where it keeps one.
 */
export const refreshOnReplay = (name: string, refresh: (answer: StoredAnswer) => Promise<StoredAnswer>) => {
  refreshers.set(name, refresh);
};

/**
 * Keeps the running keyed request's answer in its key's claim, written by the
 * change's own transaction (to be called just before it): a JSON body with
 * `status`, its part that only the commit tells made again on a replay by
 * `refresh` (`refreshOnReplay`). No write keeps it after the change (ADR 0027).
 */
export const answerInTheChange = (status: number, body: unknown, refresh?: string): boolean =>
  idempotency.answerInTheClaim({
    statusCode: status,
    headers: { ...JSON_HEADERS },
    body: JSON.stringify(body),
    ...(refresh ? { refresh } : {}),
  });

const replay = async (kept: StoredAnswer): Promise<HttpResult> => {
  const refresh = kept.refresh === undefined ? undefined : refreshers.get(kept.refresh);
  const answer = refresh
    ? await refresh(kept).catch((error: Error) => {
        log('warn', 'a replayed answer not refreshed', { error: error.message });
        return kept;
      })
    : kept;
  return {
    statusCode: answer.statusCode,
    headers: { ...answer.headers, [IDEMPOTENT_REPLAY_HEADER]: 'true' },
    body: answer.body,
  };
};

export const STILL_APPLYING = 'This change is still being applied. Try again in a moment.';
const stillApplying = () => new ConflictError(STILL_APPLYING);

/**
 * A retry found its key: waits (up to `deadline`) while the first attempt
 * has not answered, then gives what it kept. 422 for another request under
 * the same key. A change applied whose answer never came (its attempt died
 * after committing, and no longer holds it: `IDEMPOTENCY_LEASE_MS`) is 409
 * "already made": the outbox shows it and takes the action out, and the
 * screen reads the car as it now stands.
 */
const firstAnswer = async (
  caller: string,
  key: string,
  fingerprint: string,
  found: IdempotencyRecord | undefined,
  deadline: number,
): Promise<HttpResult | undefined> => {
  let record = found;
  const abandoned = (applied: { appliedAt: number }) =>
    applied.appliedAt + IDEMPOTENCY_LEASE_MS <= Date.now();
  while (
    (record?.state === 'in_progress' || (record?.state === 'applied' && !abandoned(record))) &&
    record.fingerprint === fingerprint &&
    Date.now() < deadline
  ) {
    await sleep(POLL_MS);
    record = await idempotency.get(db, caller, key);
  }
  if (record && record.fingerprint !== fingerprint) throw new IdempotencyKeyReusedError();
  if (record?.state === 'completed') return replay(record.answer);
  if (record?.state === 'applied') {
    if (abandoned(record)) {
      throw new ConflictError('This change was already made. The screen shows where it stands now.');
    }
    throw stillApplying();
  }
  if (record?.state === 'in_progress') throw stillApplying();
  return undefined;
};

/**
 * Runs a request's service: with its key to be claimed by the change's own
 * transaction, and its fan-out left to be awaited beside the answer's
 * keeping, when its route claims in the change.
 */
export const runKeyed = <T>(event: HttpEvent, service: () => Promise<T>): Promise<T> => {
  const claim = claims.get(event);
  if (!claim?.inTransaction) return service();
  const inTransaction = claim.inTransaction;
  return idempotency.claimingIn(inTransaction, () => leavingBesideTheAnswer(claim.left, service));
};

const answerOf = (response: HttpResult): StoredAnswer => ({
  statusCode: response.statusCode ?? 200,
  headers: Object.fromEntries(
    Object.entries(response.headers ?? {}).map(([name, value]) => [name, String(value)]),
  ),
  body: typeof response.body === 'string' ? response.body : '',
});

/** An answer kept for a key: below 500, and no 429 (a retry later may be let through). */
const keepable = (response: HttpResult | null | undefined): response is HttpResult =>
  !!response && response.statusCode !== undefined && response.statusCode < 500 && response.statusCode !== 429;

/**
 * Makes a mutation sent with an `Idempotency-Key` apply once: the first
 * request claims the key (a conditional put), its answer is kept 24 hours,
 * and a retry by the same caller gets that answer again without anything
 * applied; a retry racing the first waits for its answer. The same key with
 * another route or body is refused (422). Requests without the header, reads
 * and public routes are untouched. Runs after authorization and validation
 * (a refused request claims nothing).
 */
export const idempotentMutations = (
  routeName: string,
  errorResponse: (error: unknown) => HttpResult,
): MiddlewareObj<HttpEvent, HttpResult> => {
  const inTheChange = CLAIMED_IN_THE_CHANGE.has(routeName);
  /** A key claimed in the change's transaction: keeps the answer beside the fan-out, or finds the first one. */
  const finishInTransaction = async (
    request: { event: HttpEvent; response: HttpResult | null | undefined; error?: unknown },
    claim: Claim & { inTransaction: TransactionClaim },
  ) => {
    const { caller, key, fingerprint, inTransaction } = claim;
    const { response } = request;
    if (inTransaction.state === 'committed') {
      // The change committed with the key: its answer (below 500) is kept while the fan-out goes out,
      // unless the claim kept it already (`answerInTheChange`).
      const keeping = inTransaction.answered
        ? undefined
        : keepable(response)
          ? idempotency.complete(db, caller, key, answerOf(response))
          : Promise.resolve(log('error', 'a change applied answered with an error', { route: routeName }));
      await Promise.all([keeping, Promise.allSettled(claim.left)]);
      return;
    }
    await Promise.allSettled(claim.left);
    // A refusal its transaction decided while the key was free (`refusedByTheChange`): no first answer to find.
    if (inTransaction.state === 'refused') return;
    const taken = request.error instanceof IdempotencyKeyTakenError;
    if (taken || (request.error !== undefined && keepable(response))) {
      // A retry: its transaction found the key, or it was refused because the first attempt moved things on.
      const record = await idempotency.get(db, caller, key);
      try {
        const first = await firstAnswer(caller, key, fingerprint, record, Date.now() + WAIT_MS);
        if (first) request.response = first;
        else if (taken) throw stillApplying();
      } catch (error) {
        request.error = error;
        request.response = errorResponse(error);
      }
      return;
    }
    if (request.error === undefined && keepable(response)) {
      // A change that wrote no transaction: its answer is kept for a retry in sequence.
      if (await idempotency.keep(db, caller, key, fingerprint, answerOf(response))) return;
      // The key was there: a retry of a change that was made (a release that finds its children released), answered as the first.
      try {
        const record = await idempotency.get(db, caller, key);
        const first = await firstAnswer(caller, key, fingerprint, record, Date.now() + WAIT_MS);
        if (first) request.response = first;
      } catch (error) {
        request.error = error;
        request.response = errorResponse(error);
      }
    }
  };
  const finish = async (request: {
    event: HttpEvent;
    response: HttpResult | null | undefined;
    error?: unknown;
  }) => {
    const { event, response } = request;
    const claim = claims.get(event);
    if (!claim) return;
    claims.delete(event);
    try {
      if (claim.inTransaction) {
        await finishInTransaction(request, { ...claim, inTransaction: claim.inTransaction });
      } else if (keepable(response)) {
        await idempotency.complete(db, claim.caller, claim.key, answerOf(response));
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
      if (inTheChange) {
        // No call here: the change's transaction claims the key (or finds it taken: a retry).
        const inTransaction: TransactionClaim = {
          table: db.table,
          caller,
          key,
          fingerprint,
          state: 'pending',
        };
        claims.set(event, { caller, key, fingerprint, inTransaction, left: [] });
        return;
      }
      const deadline = Date.now() + WAIT_MS;
      for (;;) {
        const result = await idempotency.claim(db, caller, key, fingerprint);
        if (result.claimed) {
          claims.set(event, { caller, key, fingerprint, left: [] });
          return;
        }
        // A racing first attempt: wait for its answer (or for it to give the key back).
        const first = await firstAnswer(caller, key, fingerprint, result.record, deadline);
        if (first) {
          replays.set(event, first);
          return;
        }
        // Given back (the first attempt failed) or expired: claim it again, while there is time.
        if (Date.now() >= deadline) throw stillApplying();
      }
    },
    after: finish,
    onError: finish,
  };
};

export { IdempotencyKeyTakenError };
