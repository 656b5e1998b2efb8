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

/**
 * `count` new ids of a kind at once (a CSV import): one UpdateItem raises the
 * counter by `count`; the ids are the `count` numbers up to the new value.
 */
export const nextIds = async (db: Db, kind: string, count: number): Promise<number[]> => {
  if (count <= 0) return [];
  const result = await db.doc.send(
    new UpdateCommand({
      TableName: db.table,
      Key: { pk: `COUNTER#${kind}`, sk: 'COUNTER' },
      UpdateExpression: 'ADD #value :count',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':count': count },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const last = Number(result.Attributes?.value);
  return Array.from({ length: count }, (_, i) => last - count + 1 + i);
};

/** Strips the key attributes (and the lowercased `search` text of roster records) off an item before it leaves the store. */
export const stripKeys = <T>(item: Record<string, unknown>): T => {
  const { pk, sk, gsi1pk, gsi1sk, gsi2pk, gsi2sk, ttl, entity, search, ...rest } = item;
  return rest as T;
};
