import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './db';

/** BatchWriteItem takes at most 25 requests. */
const BATCH_SIZE = 25;
/** Tries per chunk while DynamoDB hands back unprocessed items, with a doubling pause from 50 ms. */
const BATCH_ATTEMPTS = 5;
const BATCH_BACKOFF_MS = 50;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Puts items (idempotent puts only) with BatchWriteItem, 25 at a time,
 * sending again what DynamoDB leaves unprocessed; fails when some items are
 * still unprocessed after the last try. `concurrency` batches are in flight
 * at once (1 unless asked: a CSV import writes thousands).
 */
export const putAll = async (
  db: Db,
  items: readonly Record<string, unknown>[],
  concurrency = 1,
): Promise<void> => {
  const starts = Array.from({ length: Math.ceil(items.length / BATCH_SIZE) }, (_, i) => i * BATCH_SIZE);
  let next = 0;
  const worker = async () => {
    while (next < starts.length) {
      const start = starts[next++] as number;
      await putChunk(db, items.slice(start, start + BATCH_SIZE));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, starts.length)) }, worker));
};

const putChunk = async (db: Db, chunk: readonly Record<string, unknown>[]): Promise<void> => {
  let requests = chunk.map((Item) => ({ PutRequest: { Item } }));
  for (let attempt = 1; requests.length > 0; attempt++) {
    if (attempt > BATCH_ATTEMPTS) {
      throw new Error(`${requests.length} items still unprocessed after ${BATCH_ATTEMPTS} batch writes`);
    }
    if (attempt > 1) await pause(BATCH_BACKOFF_MS * 2 ** (attempt - 2));
    const { UnprocessedItems } = await db.doc.send(
      new BatchWriteCommand({ RequestItems: { [db.table]: requests } }),
    );
    requests = (UnprocessedItems?.[db.table] ?? []) as typeof requests;
  }
};
