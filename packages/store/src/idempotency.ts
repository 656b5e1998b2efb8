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
  if (item.state === 'completed') {
    return {
      state: 'completed',
      fingerprint,
      answer: {
        statusCode: Number(item.statusCode),
        headers: (item.headers as Record<string, string> | undefined) ?? {},
        body: String(item.body ?? ''),
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
    const expiresAt = now + IDEMPOTENCY_TTL_MS;
    const item = {
      ...keyOf(caller, key),
      state: 'in_progress',
      fingerprint,
      leaseUntil: now + IDEMPOTENCY_LEASE_MS,
      expiresAt,
      ttl: Math.ceil(expiresAt / 1000),
    };
    count(item);
    try {
      await db.doc.send(
        new PutCommand({
          TableName: db.table,
          Item: item,
          ConditionExpression:
            'attribute_not_exists(pk) OR expiresAt <= :now OR (#state = :inProgress AND leaseUntil <= :now)',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':now': now, ':inProgress': 'in_progress' },
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

  /** Keeps the first answer of a claimed key. */
  async complete(db: Db, caller: string, key: string, answer: StoredAnswer): Promise<void> {
    // The record as it becomes (an update is billed on the larger of the item before and after).
    count({
      ...keyOf(caller, key),
      state: 'completed',
      fingerprint: '-'.repeat(43),
      expiresAt: 0,
      ttl: 0,
      ...answer,
    });
    await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: keyOf(caller, key),
        UpdateExpression: 'SET #state = :completed, statusCode = :status, headers = :headers, body = :body',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':completed': 'completed',
          ':status': answer.statusCode,
          ':headers': answer.headers,
          ':body': answer.body,
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
          ExpressionAttributeValues: { ':inProgress': 'in_progress' },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  },
};
