import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './db';

/**
 * Failure counters in fixed windows: `THROTTLE#{scope}#{window start}` /
 * `THROTTLE`, raised atomically, expiring by TTL after the window.
 */
const key = (scope: string, windowMs: number, now: number) => {
  const start = Math.floor(now / windowMs) * windowMs;
  return { key: { pk: `THROTTLE#${scope}#${start}`, sk: 'THROTTLE' }, resetAt: start + windowMs };
};

export const throttle = {
  /** Failures counted so far in the current window, and when it resets. */
  async count(db: Db, scope: string, windowMs: number, now = Date.now()) {
    const { key: k, resetAt } = key(scope, windowMs, now);
    const { Item } = await db.doc.send(new GetCommand({ TableName: db.table, Key: k, ConsistentRead: true }));
    return { failures: Number(Item?.failures ?? 0), resetAt };
  },

  async fail(db: Db, scope: string, windowMs: number, now = Date.now()): Promise<number> {
    const { key: k, resetAt } = key(scope, windowMs, now);
    const { Attributes } = await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: k,
        UpdateExpression: 'ADD failures :one SET #ttl = :ttl',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':one': 1, ':ttl': Math.ceil(resetAt / 1000) },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(Attributes?.failures ?? 1);
  },

  async clear(db: Db, scope: string, windowMs: number, now = Date.now()): Promise<void> {
    await db.doc.send(new DeleteCommand({ TableName: db.table, Key: key(scope, windowMs, now).key }));
  },
};
