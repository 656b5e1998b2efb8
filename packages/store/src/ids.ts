import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './db';

/**
 * Numeric ids, as the specification's entities use them: one counter item per
 * entity kind, raised atomically. Key: `COUNTER#{kind}` / `COUNTER`.
 */
export const nextId = async (db: Db, kind: string): Promise<number> => {
  const result = await db.doc.send(
    new UpdateCommand({
      TableName: db.table,
      Key: { pk: `COUNTER#${kind}`, sk: 'COUNTER' },
      UpdateExpression: 'ADD #value :one',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(result.Attributes?.value);
};

/** Strips the key attributes off an item before it leaves the store. */
export const stripKeys = <T>(item: Record<string, unknown>): T => {
  const { pk, sk, gsi1pk, gsi1sk, gsi2pk, gsi2sk, ttl, entity, ...rest } = item;
  return rest as T;
};
