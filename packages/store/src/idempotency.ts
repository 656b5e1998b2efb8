import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './db';
import { itemSize, meter } from './meter';
import { isConditionFailure } from './query';

/**
 * Idempotency records: the first answer to a mutation sent with an
 * `Idempotency-Key`, kept 24 hours so a retry gets that answer again.
 * `IDEMPOTENCY#{caller}#{key}` / `IDEMPOTENCY`: the caller (a user, a bus
 * link) is part of the key, so one caller's key never names another's
 * record. (docs/adr/0014-idempotency-keys.md)
 */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a claim may stay in progress before another attempt may take it over (its holder died). */
export const IDEMPOTENCY_LEASE_MS = 30 * 1000;

/** The benchmark tells the keys' write units apart (`ddb.idempotencyWriteUnits`): 1 per KB written. */
const count = (item: Record<string, unknown>) =>
  meter.add('ddb.idempotencyWriteUnits', Math.max(1, Math.ceil(itemSize(item) / 1024)));

const keyOf = (caller: string, key: string) => ({ pk: `IDEMPOTENCY#${caller}#${key}`, sk: 'IDEMPOTENCY' });

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
}

export type IdempotencyRecord =
  | { state: 'in_progress'; fingerprint: string; leaseUntil: number }
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
      },
    };
  }
  return { state: 'in_progress', fingerprint, leaseUntil: Number(item.leaseUntil) };
};

export const idempotency = {
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
    try {
      await db.doc.send(
        new PutCommand({
          TableName: db.table,
          Item: item,
          ConditionExpression:
            'attribute_not_exists(pk) OR expiresAt <= :now OR (#state = :inProgress AND leaseUntil <= :now)',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':now': now, ':inProgress': IN_PROGRESS },
        }),
      );
      return { claimed: true };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return { claimed: false, record: await idempotency.get(db, caller, key, now) };
    }
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
    const bodyBr = compress(answer.body);
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
          'SET #state = :answered, statusCode = :status, headers = :headers, bodyBr = :body REMOVE leaseUntil',
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
