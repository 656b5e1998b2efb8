import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { ensureTable, localDynamoClient, startDynamoLocal } from '@curbside/local';
import { connectionTableNameFor } from '@curbside/store';

/**
 * A DynamoDB Local of its own (the JVM's defaults, in memory) with a data table
 * named `data` and its live-connection table, for the micro-benchmarks that
 * measure how Local orders calls (`sequence-lock.ts`, `add-to-batch-chain.ts`, `bell.ts`).
 */
export const localTables = async (data: string) => {
  const local = await startDynamoLocal({ inMemory: true });
  const connections = connectionTableNameFor(data);
  await ensureTable({ endpoint: local.endpoint, tableName: data });
  await ensureTable({ endpoint: local.endpoint, tableName: connections, kind: 'connections' });
  return { local, connections, client: localDynamoClient(local.endpoint) };
};

export const s = (value: string): AttributeValue => ({ S: value });
export const n = (value: number): AttributeValue => ({ N: String(value) });
/** An UpdateItem's (or a transaction's Update's) expression that adds one to `value`: an event's number taken. */
export const ADD_ONE = {
  UpdateExpression: 'ADD #value :one',
  ExpressionAttributeNames: { '#value': 'value' },
  ExpressionAttributeValues: { ':one': n(1) },
};
/** The session whose line the micro-benchmarks' polls read. */
export const SESSION = 7;
export const pad = (i: number) => String(i).padStart(6, '0');

/**
 * An item of about the size of a queue entry or event (some 400 bytes); `indexed`: in the line's
 * index partition (the poll's Query), as the 20 active cars are and a change's items are not.
 */
export const dataItem = (
  pk: string,
  sk: string,
  i: number,
  indexed: boolean,
): Record<string, AttributeValue> => ({
  pk: s(pk),
  sk: s(sk),
  ...(indexed ? { gsi1pk: s(`SESSION#${SESSION}#ACTIVE`), gsi1sk: s(pad(i)) } : {}),
  entity: s('queueEntry'),
  vehicleNumber: s(String(100 + (i % 800))),
  students: s('x'.repeat(300)),
  version: n(i),
});

/** The `p`th percentile of an ascending list. */
export const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;

/** A sorted list's median and 95th percentile, as a table's two cells. */
export const medianAnd95 = (sorted: readonly number[]): string[] => [
  percentile(sorted, 50).toFixed(1),
  percentile(sorted, 95).toFixed(1),
];
