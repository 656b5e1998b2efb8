import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './db';
import { isConditionFailure } from './query';

/**
 * Failure counters in fixed windows: `THROTTLE#{scope}#{window start}` /
 * `THROTTLE`, raised atomically, expiring by TTL after the window.
 */
const key = (scope: string, windowMs: number, now: number) => {
  const start = Math.floor(now / windowMs) * windowMs;
  return { key: { pk: `THROTTLE#${scope}#${start}`, sk: 'THROTTLE' }, resetAt: start + windowMs };
};

export const throttle = {
  /**
   * Counts one attempt against every scope before it is made, each only while
   * under its limit, so a burst of simultaneous attempts cannot slip past the
   * limit between a check and a count. `allowed` is false when any scope was
   * at its limit (what was counted is given back). An attempt that turns out
   * well calls `release()` to give its counts back.
   */
  async reserve(
    db: Db,
    scopes: ReadonlyArray<{ scope: string; limit: number }>,
    windowMs: number,
    now = Date.now(),
  ): Promise<{ allowed: boolean; resetAt: number; release: () => Promise<void> }> {
    const taken = await Promise.all(
      scopes.map(async ({ scope, limit }) => {
        try {
          await db.doc.send(
            new UpdateCommand({
              TableName: db.table,
              Key: key(scope, windowMs, now).key,
              UpdateExpression: 'ADD failures :one SET #ttl = :ttl',
              ConditionExpression: 'attribute_not_exists(failures) OR failures < :limit',
              ExpressionAttributeNames: { '#ttl': 'ttl' },
              ExpressionAttributeValues: {
                ':one': 1,
                ':limit': limit,
                ':ttl': Math.ceil(key(scope, windowMs, now).resetAt / 1000),
              },
            }),
          );
          return scope;
        } catch (error) {
          if (isConditionFailure(error)) return undefined;
          throw error;
        }
      }),
    );
    const counted = taken.filter((scope): scope is string => scope !== undefined);
    const release = async () => {
      await Promise.all(counted.map((scope) => giveBack(db, scope, windowMs, now)));
    };
    const allowed = counted.length === scopes.length;
    if (!allowed) await release();
    return { allowed, resetAt: key('', windowMs, now).resetAt, release };
  },

  async clear(db: Db, scope: string, windowMs: number, now = Date.now()): Promise<void> {
    await db.doc.send(new DeleteCommand({ TableName: db.table, Key: key(scope, windowMs, now).key }));
  },
};

/** Takes back one counted attempt, never below 0. */
const giveBack = async (db: Db, scope: string, windowMs: number, now: number) => {
  try {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: key(scope, windowMs, now).key,
        UpdateExpression: 'ADD failures :minusOne',
        ConditionExpression: 'failures > :zero',
        ExpressionAttributeValues: { ':minusOne': -1, ':zero': 0 },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
};
