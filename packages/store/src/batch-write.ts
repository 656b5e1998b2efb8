import { BatchGetCommand, type BatchGetCommandOutput, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { backoffMs, sleep } from '@curbside/domain';
import type { Db } from './db';
import { queryAll } from './query';

/** BatchWriteItem takes at most 25 requests. */
const BATCH_SIZE = 25;
/** Tries per chunk while DynamoDB hands back unprocessed items, with a doubling pause from 50 ms. */
const BATCH_ATTEMPTS = 5;
const BATCH_BACKOFF_MS = 50;

type WriteRequest =
  | { PutRequest: { Item: Record<string, unknown> } }
  | { DeleteRequest: { Key: Record<string, unknown> } };

/** Sends one chunk (at most 25 requests), sending again what DynamoDB leaves unprocessed. */
const writeChunk = async (db: Db, chunk: readonly WriteRequest[]): Promise<void> => {
  let requests = chunk;
  for (let attempt = 1; requests.length > 0; attempt++) {
    if (attempt > BATCH_ATTEMPTS) {
      throw new Error(`${requests.length} items still unprocessed after ${BATCH_ATTEMPTS} batch writes`);
    }
    if (attempt > 1) await sleep(backoffMs(attempt - 1, BATCH_BACKOFF_MS));
    const { UnprocessedItems } = await db.doc.send(
      new BatchWriteCommand({ RequestItems: { [db.table]: requests as never } }),
    );
    requests = (UnprocessedItems?.[db.table] ?? []) as WriteRequest[];
  }
};

/**
 * Sends write requests with BatchWriteItem, 25 at a time, sending again what
 * DynamoDB leaves unprocessed; fails when some are still unprocessed after
 * the last try. `concurrency` batches are in flight at once (1 unless asked:
 * a CSV import writes thousands).
 */
const writeAll = async (db: Db, all: readonly WriteRequest[], concurrency = 1): Promise<void> => {
  const starts = Array.from({ length: Math.ceil(all.length / BATCH_SIZE) }, (_, i) => i * BATCH_SIZE);
  let next = 0;
  const worker = async () => {
    while (next < starts.length) {
      const start = starts[next++] as number;
      await writeChunk(db, all.slice(start, start + BATCH_SIZE));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, starts.length)) }, worker));
};

/** Puts items (idempotent puts only), 25 per BatchWriteItem, `concurrency` calls at once. */
export const putAll = (db: Db, items: readonly Record<string, unknown>[], concurrency = 1): Promise<void> =>
  writeAll(
    db,
    items.map((Item) => ({ PutRequest: { Item } })),
    concurrency,
  );

/** Deletes items by key (idempotent), 25 per BatchWriteItem. */
export const deleteAll = (db: Db, keys: readonly Record<string, unknown>[]): Promise<void> =>
  writeAll(
    db,
    keys.map((Key) => ({ DeleteRequest: { Key } })),
  );

/**
 * Puts back the items a rewrite changed (a student's erasure, issue 55: the
 * one time stored events are rewritten); answers how many changed.
 */
export const rewriteAll = async (
  db: Db,
  items: readonly Record<string, unknown>[],
  rewrite: (item: Record<string, unknown>) => Record<string, unknown>,
): Promise<number> => {
  const changed = items
    .map((item) => ({ item, after: rewrite(item) }))
    .filter(({ item, after }) => JSON.stringify(after) !== JSON.stringify(item))
    .map(({ after }) => after);
  await putAll(db, changed);
  return changed.length;
};

/** Rewrites every item of a partition (`rewriteAll`); answers how many changed. */
export const rewritePartition = async (
  db: Db,
  pk: string,
  rewrite: (item: Record<string, unknown>) => Record<string, unknown>,
): Promise<number> =>
  rewriteAll(
    db,
    await queryAll(db, { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } }),
    rewrite,
  );

/** Deletes every item of a partition (read by key only). */
export const deletePartition = async (db: Db, pk: string): Promise<void> =>
  deleteAll(
    db,
    await queryAll(db, {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ProjectionExpression: 'pk, sk',
    }),
  );

/** BatchGetItem takes at most 100 keys. */
const GET_SIZE = 100;

/**
 * Reads items by key with BatchGetItem, 100 keys a call, asking again for
 * what DynamoDB leaves unprocessed (with a doubling pause); items that do not
 * exist are simply absent from the answer, which is in no particular order.
 */
export const getAll = async (
  db: Db,
  keys: readonly Record<string, unknown>[],
  consistent = false,
): Promise<Record<string, unknown>[]> => {
  const found: Record<string, unknown>[] = [];
  for (let start = 0; start < keys.length; start += GET_SIZE) {
    const read = await getOfTables(db, { [db.table]: keys.slice(start, start + GET_SIZE) }, consistent);
    found.push(...(read[db.table] ?? []));
  }
  return found;
};

/**
 * One BatchGetItem (at most 100 keys in all) of the keys of several tables,
 * by table name, asking again for what DynamoDB leaves unprocessed (with a
 * doubling pause): the items found, by table.
 */
export const getOfTables = async (
  db: Db,
  keysByTable: Readonly<Record<string, readonly Record<string, unknown>[]>>,
  consistent = false,
): Promise<Record<string, Record<string, unknown>[]>> => {
  const found: Record<string, Record<string, unknown>[]> = {};
  let pending: Record<string, readonly Record<string, unknown>[]> = keysByTable;
  for (let attempt = 1; Object.values(pending).some((keys) => keys.length > 0); attempt++) {
    if (attempt > BATCH_ATTEMPTS) {
      const left = Object.values(pending).reduce((sum, keys) => sum + keys.length, 0);
      throw new Error(`${left} keys still unprocessed after ${BATCH_ATTEMPTS} batch reads`);
    }
    if (attempt > 1) await sleep(backoffMs(attempt - 1, BATCH_BACKOFF_MS));
    const result: BatchGetCommandOutput = await db.doc.send(
      new BatchGetCommand({
        RequestItems: Object.fromEntries(
          Object.entries(pending)
            .filter(([, keys]) => keys.length > 0)
            .map(([table, keys]) => [
              table,
              { Keys: keys as Record<string, unknown>[], ConsistentRead: consistent },
            ]),
        ),
      }),
    );
    for (const [table, items] of Object.entries(result.Responses ?? {}))
      found[table] = [...(found[table] ?? []), ...(items as Record<string, unknown>[])];
    pending = Object.fromEntries(
      Object.entries(result.UnprocessedKeys ?? {}).map(([table, request]) => [
        table,
        (request.Keys ?? []) as Record<string, unknown>[],
      ]),
    );
  }
  return found;
};
