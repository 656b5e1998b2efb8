import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure } from './condition';
import type { Db } from './db';
import { itemSize, meter } from './meter';
import {
  APPLIED,
  IDEMPOTENCY_TTL_MS,
  idempotencyKeyOf as keyOf,
  type TransactionClaim,
  transactionClaims,
} from './transaction-claim';

export {
  IDEMPOTENCY_TTL_MS,
  IdempotencyKeyTakenError,
  refusedByTheChange,
  sendWithClaim,
  type TransactionClaim,
} from './transaction-claim';

/**
 * Idempotency records: the first answer to a mutation sent with an
 * `Idempotency-Key`, kept 24 hours so a retry gets that answer again.
 * `IDEMPOTENCY#{caller}#{key}` / `IDEMPOTENCY`: the caller (a user, a bus
 * link) is part of the key, so one caller's key never names another's
 * record. (docs/adr/0014-idempotency-keys.md)
 */

/** How long a claim may stay in progress before another attempt may take it over (its holder died). */
export const IDEMPOTENCY_LEASE_MS = 30 * 1000;

/** The benchmark tells the keys' write units apart (`ddb.idempotencyWriteUnits`): 1 per KB written. */
const count = (item: Record<string, unknown>) =>
  meter.add('ddb.idempotencyWriteUnits', Math.max(1, Math.ceil(itemSize(item) / 1024)));

/**
 * The stored states. A record answered before the answer was compressed has
 * `completed` and the body as a string; one answered since has `answered` and
 * the body compressed (`bodyBr`, Brotli): an answer of a few students' car is
 * about 900 bytes of JSON, which with the record's keys made the update 2
 * write units, and compressed it is under 400 bytes (1 unit). Both are read.
 * Code from before the compression reads an `answered` record as a claim still
 * in progress (it waits, then answers 409 "still being applied"), never as an
 * empty answer, so a rollback cannot replay a wrong one.
 */
const IN_PROGRESS = 'in_progress';
const COMPLETED_PLAIN = 'completed';
const ANSWERED = 'answered';
/**
 * A key claimed inside its change's own transaction (ADR 0027): the change
 * committed with it, its answer is not kept yet. No lease: it is never taken
 * over (the change is applied), only answered. Code from before reads it as a
 * claim in progress whose lease is not over (`leaseUntil` absent), so after a
 * rollback a retry waits and gets 409, never a second application.
 */

/** Brotli at quality 6: within a few bytes of the best (quality 11) on small JSON, at a tenth of the time. */
const compress = (body: string) =>
  brotliCompressSync(Buffer.from(body, 'utf8'), {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 6,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(body),
    },
  });

const bodyOf = (item: Record<string, unknown>): string => {
  if (item.bodyBr instanceof Uint8Array) return brotliDecompressSync(item.bodyBr).toString('utf8');
  return String(item.body ?? '');
};

/** Puts a key's record where the condition holds: false when it did not (nothing written). */
const putWhere = async (
  db: Db,
  item: Record<string, unknown>,
  condition: string,
  values: Record<string, unknown>,
  names?: Record<string, string>,
): Promise<boolean> => {
  try {
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: item,
        ConditionExpression: condition,
        ExpressionAttributeValues: values,
        ...(names ? { ExpressionAttributeNames: names } : {}),
      }),
    );
    return true;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return false;
  }
};

/** An answer as its record keeps it (the body compressed). */
const answerAttributes = (answer: StoredAnswer) => ({
  statusCode: answer.statusCode,
  headers: answer.headers,
  bodyBr: compress(answer.body),
});

/** A claim's item (what the completion's update is billed against too). */
const claimItem = (caller: string, key: string, fingerprint: string, now: number) => {
  const expiresAt = now + IDEMPOTENCY_TTL_MS;
  return {
    ...keyOf(caller, key),
    state: IN_PROGRESS,
    fingerprint,
    leaseUntil: now + IDEMPOTENCY_LEASE_MS,
    expiresAt,
    ttl: Math.ceil(expiresAt / 1000),
  };
};

/** The answer kept for a key. */
export interface StoredAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  /**
   * Kept in the change's own claim before its transaction (`answerInTheClaim`):
   * the name of what a replay makes again from it (a place in line, known only
   * after the commit).
   */
  refresh?: string;
}

export type IdempotencyRecord =
  | { state: 'in_progress'; fingerprint: string; leaseUntil: number }
  | { state: 'applied'; fingerprint: string; appliedAt: number }
  | { state: 'completed'; fingerprint: string; answer: StoredAnswer };

const recordOf = (item: Record<string, unknown> | undefined, now: number): IdempotencyRecord | undefined => {
  if (!item || typeof item.expiresAt !== 'number' || item.expiresAt <= now) return undefined;
  const fingerprint = String(item.fingerprint);
  if (item.state === ANSWERED || item.state === COMPLETED_PLAIN) {
    return {
      state: 'completed',
      fingerprint,
      answer: {
        statusCode: Number(item.statusCode),
        headers: (item.headers as Record<string, string> | undefined) ?? {},
        body: bodyOf(item),
        ...(typeof item.refresh === 'string' ? { refresh: item.refresh } : {}),
      },
    };
  }
  if (item.state === APPLIED) return { state: 'applied', fingerprint, appliedAt: Number(item.appliedAt) };
  return { state: 'in_progress', fingerprint, leaseUntil: Number(item.leaseUntil) };
};

export const idempotency = {
  /**
   * Runs a request's work with its key to be claimed by the first
   * transaction it writes (`sendWithClaim`); `claim.state` says afterwards
   * whether one did.
   */
  claimingIn<T>(claim: TransactionClaim, work: () => Promise<T>): Promise<T> {
    return transactionClaims.run(claim, work);
  },

  /**
   * Keeps the running request's answer in its key's claim, made by the change's
   * own transaction (issue 54: no UpdateItem after it): to be called before that
   * transaction, with the answer as it will be sent, less what only the commit
   * tells (`refresh` names how a replay makes that again). False when no claim
   * is pending (no key, or one already written): then nothing is kept here.
   */
  answerInTheClaim(answer: StoredAnswer): boolean {
    const claim = transactionClaims.getStore();
    if (claim?.state !== 'pending') return false;
    claim.answered = {
      state: ANSWERED,
      ...answerAttributes(answer),
      ...(answer.refresh ? { refresh: answer.refresh } : {}),
    };
    return true;
  },

  /**
   * Keeps the answer of a change that claimed no key (it wrote no
   * transaction), where no record is: a retry in sequence gets it. Answers
   * whether it was kept (false: the key's record was there).
   */
  async keep(
    db: Db,
    caller: string,
    key: string,
    fingerprint: string,
    answer: StoredAnswer,
  ): Promise<boolean> {
    const now = Date.now();
    const { leaseUntil: _, ...claim } = claimItem(caller, key, fingerprint, now);
    const item = { ...claim, state: ANSWERED, ...answerAttributes(answer) };
    count(item);
    return putWhere(db, item, 'attribute_not_exists(pk) OR expiresAt <= :now', { ':now': now });
  },

  /**
   * Claims a key for one attempt with a conditional put: only one of two
   * racing requests gets `claimed: true`; the other is told what is there.
   * An expired record (TTL deletes lag by days) or an abandoned claim is
   * taken over.
   */
  async claim(
    db: Db,
    caller: string,
    key: string,
    fingerprint: string,
    now = Date.now(),
  ): Promise<{ claimed: true } | { claimed: false; record: IdempotencyRecord | undefined }> {
    const item = claimItem(caller, key, fingerprint, now);
    count(item);
    const claimed = await putWhere(
      db,
      item,
      'attribute_not_exists(pk) OR expiresAt <= :now OR (#state = :inProgress AND leaseUntil <= :now)',
      { ':now': now, ':inProgress': IN_PROGRESS },
      { '#state': 'state' },
    );
    return claimed
      ? { claimed: true }
      : { claimed: false, record: await idempotency.get(db, caller, key, now) };
  },

  /** The record of a key as it is now (a consistent read), or undefined. */
  async get(db: Db, caller: string, key: string, now = Date.now()): Promise<IdempotencyRecord | undefined> {
    const { Item } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: keyOf(caller, key), ConsistentRead: true }),
    );
    return recordOf(Item, now);
  },

  /**
   * Keeps the first answer of a claimed key, its body compressed (a replay
   * decompresses it to the same bytes); the lease goes, as it is done with.
   */
  async complete(db: Db, caller: string, key: string, answer: StoredAnswer, now = Date.now()): Promise<void> {
    const { bodyBr } = answerAttributes(answer);
    // An update is billed on the larger of the item before (the claim) and after.
    const claimed = claimItem(caller, key, '-'.repeat(43), now);
    const { leaseUntil: _, ...kept } = claimed;
    const answered = {
      ...kept,
      state: ANSWERED,
      statusCode: answer.statusCode,
      headers: answer.headers,
      bodyBr,
    };
    count(itemSize(answered) > itemSize(claimed) ? answered : claimed);
    await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: keyOf(caller, key),
        UpdateExpression:
          'SET #state = :answered, statusCode = :status, headers = :headers, bodyBr = :body REMOVE leaseUntil, appliedAt',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':answered': ANSWERED,
          ':status': answer.statusCode,
          ':headers': answer.headers,
          ':body': bodyBr,
        },
      }),
    );
  },

  /** Gives a claim back (the attempt failed without an answer worth keeping): a retry applies it afresh. */
  async release(db: Db, caller: string, key: string): Promise<void> {
    count(keyOf(caller, key));
    try {
      await db.doc.send(
        new DeleteCommand({
          TableName: db.table,
          Key: keyOf(caller, key),
          ConditionExpression: '#state = :inProgress',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':inProgress': IN_PROGRESS },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  },
};
