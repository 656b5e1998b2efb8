import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './db';
import { isConditionFailure } from './query';

/**
 * Counters in fixed windows: `THROTTLE#{scope}#{window start}` / `THROTTLE`,
 * raised atomically, expiring by TTL after the window (failed attempts, the
 * pickup-code guessing budget, codes issued).
 */
const key = (scope: string, windowMs: number, now: number) => {
  const start = Math.floor(now / windowMs) * windowMs;
  return { key: { pk: `THROTTLE#${scope}#${start}`, sk: 'THROTTLE' }, resetAt: start + windowMs };
};

/** A counter to reserve against: at most `limit` per window, this attempt counting `cost` (default 1). */
export interface ThrottleScope {
  scope: string;
  limit: number;
  cost?: number;
}

export const throttle = {
  /**
   * Counts one attempt against every scope before it is made, each only while
   * the count stays within its limit, so a burst of simultaneous attempts
   * cannot slip past the limit between a check and a count. `allowed` is
   * false when any scope had no room (what was counted is given back). An
   * attempt that turns out well calls `release()` to give its counts back.
   */
  async reserve(
    db: Db,
    scopes: readonly ThrottleScope[],
    windowMs: number,
    now = Date.now(),
  ): Promise<{ allowed: boolean; resetAt: number; release: () => Promise<void> }> {
    const taken = await Promise.all(
      scopes.map(async ({ scope, limit, cost = 1 }) => {
        if (cost > limit) return undefined;
        try {
          await db.doc.send(
            new UpdateCommand({
              TableName: db.table,
              Key: key(scope, windowMs, now).key,
              UpdateExpression: 'ADD failures :cost SET #ttl = :ttl',
              ConditionExpression: 'attribute_not_exists(failures) OR failures <= :room',
              ExpressionAttributeNames: { '#ttl': 'ttl' },
              ExpressionAttributeValues: {
                ':cost': cost,
                ':room': limit - cost,
                ':ttl': Math.ceil(key(scope, windowMs, now).resetAt / 1000),
              },
            }),
          );
          return { scope, cost };
        } catch (error) {
          if (isConditionFailure(error)) return undefined;
          throw error;
        }
      }),
    );
    const counted = taken.filter((taken): taken is { scope: string; cost: number } => taken !== undefined);
    const release = async () => {
      await Promise.all(counted.map(({ scope, cost }) => giveBack(db, scope, cost, windowMs, now)));
    };
    const allowed = counted.length === scopes.length;
    if (!allowed) await release();
    return { allowed, resetAt: key('', windowMs, now).resetAt, release };
  },

  async clear(db: Db, scope: string, windowMs: number, now = Date.now()): Promise<void> {
    await db.doc.send(new DeleteCommand({ TableName: db.table, Key: key(scope, windowMs, now).key }));
  },

  /** Adds one to a counter of the current window (no limit): something happened. */
  async count(db: Db, scope: string, windowMs: number, now = Date.now()): Promise<void> {
    const { key: itemKey, resetAt } = key(scope, windowMs, now);
    await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: itemKey,
        UpdateExpression: 'ADD failures :one SET #ttl = :ttl',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        // Kept one window longer than usual: `recent` reads the window before this one.
        ExpressionAttributeValues: { ':one': 1, ':ttl': Math.ceil((resetAt + windowMs) / 1000) },
      }),
    );
  },

  /** The count of the current window plus the one before it (two key reads). */
  async recent(db: Db, scope: string, windowMs: number, now = Date.now()): Promise<number> {
    const counts = await Promise.all(
      [now, now - windowMs].map(async (at) => {
        const { Item } = await db.doc.send(
          new GetCommand({ TableName: db.table, Key: key(scope, windowMs, at).key, ConsistentRead: true }),
        );
        return typeof Item?.failures === 'number' ? Item.failures : 0;
      }),
    );
    return counts.reduce((sum, count) => sum + count, 0);
  },
};

/** Takes back what an attempt counted, never below 0. */
const giveBack = async (db: Db, scope: string, cost: number, windowMs: number, now: number) => {
  try {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: key(scope, windowMs, now).key,
        UpdateExpression: 'ADD failures :minus',
        ConditionExpression: 'failures >= :cost',
        ExpressionAttributeValues: { ':minus': -cost, ':cost': cost },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
};
