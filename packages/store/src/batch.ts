import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Batch, QueueEntry, VehicleType } from '@curbside/domain';
import { ConflictError } from '@curbside/domain';
import type { Db } from './db';
import { nextId, stripKeys } from './ids';
import { cancellationReasons, isConditionFailure, queryAll } from './query';
import { activeEntryKey, completedEntry } from './queue';

/**
 * Batch: `BATCH#{id}` / `BATCH`.
 * Batches of a session in number order: gsi1 `SESSION#{sessionId}#BATCHES` / `{batchNumber:06}`.
 * Batch numbers count per session: `SESSION#{sessionId}` / `BATCH_SEQ` raised with ADD.
 * Moving entries in and out of a batch changes the entry and the batch's
 * count in one transaction, conditioned on the batch loading with room and
 * on the entry being where the caller saw it.
 */
const key = (id: number) => ({ pk: `BATCH#${id}`, sk: 'BATCH' });
const fromItem = (item: Record<string, unknown>) => stripKeys<Batch>(item);

export const batches = {
  async create(
    db: Db,
    input: { sessionId: number; schoolId: number; vehicleType: VehicleType; maxCapacity: number },
  ): Promise<Batch> {
    const [id, seq] = await Promise.all([
      nextId(db, 'batch'),
      db.doc.send(
        new UpdateCommand({
          TableName: db.table,
          Key: { pk: `SESSION#${input.sessionId}`, sk: 'BATCH_SEQ' },
          UpdateExpression: 'ADD #value :one',
          ExpressionAttributeNames: { '#value': 'value' },
          ExpressionAttributeValues: { ':one': 1 },
          ReturnValues: 'UPDATED_NEW',
        }),
      ),
    ]);
    const batch: Batch = {
      id,
      ...input,
      batchNumber: Number(seq.Attributes?.value),
      status: 'loading',
      currentCount: 0,
      startTime: new Date().toISOString(),
      endTime: null,
    };
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: {
          ...key(id),
          gsi1pk: `SESSION#${input.sessionId}#BATCHES`,
          gsi1sk: String(batch.batchNumber).padStart(6, '0'),
          entity: 'batch',
          ...batch,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return batch;
  },

  async get(db: Db, id: number): Promise<Batch | undefined> {
    const { Item } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: key(id), ConsistentRead: true }),
    );
    return Item ? fromItem(Item) : undefined;
  },

  /** A session's batches in number order. */
  async listBySession(db: Db, sessionId: number): Promise<Batch[]> {
    const items = await queryAll(db, {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': `SESSION#${sessionId}#BATCHES` },
    });
    return items.map(fromItem);
  },

  /**
   * Puts a waiting, batch-less entry into a loading batch with room and raises
   * its count, in one transaction. Answers 'full', 'closed' or 'taken' when a
   * condition failed (the batch is full, not loading, or the entry moved).
   */
  async addEntry(db: Db, batch: Batch, entry: QueueEntry): Promise<'added' | 'full' | 'closed' | 'taken'> {
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: db.table,
                Key: key(batch.id),
                UpdateExpression: 'ADD currentCount :one',
                ConditionExpression: '#status = :loading AND currentCount < maxCapacity',
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: { ':one': 1, ':loading': 'loading' },
              },
            },
            {
              Update: {
                TableName: db.table,
                Key: activeEntryKey(entry),
                UpdateExpression: 'SET batchId = :batchId, batchNumber = :batchNumber',
                ConditionExpression:
                  'attribute_exists(pk) AND #status = :waiting AND attribute_type(batchId, :null) AND vehicleType = :type',
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: {
                  ':batchId': batch.id,
                  ':batchNumber': batch.batchNumber,
                  ':waiting': 'waiting',
                  ':null': 'NULL',
                  ':type': batch.vehicleType,
                },
              },
            },
          ],
        }),
      );
      return 'added';
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const [batchReason] = cancellationReasons(error);
      if (batchReason === 'ConditionalCheckFailed') {
        const current = await batches.get(db, batch.id);
        return current?.status === 'loading' ? 'full' : 'closed';
      }
      return 'taken';
    }
  },

  /**
   * Takes an entry out of its loading batch (back to waiting, or to overflow)
   * and lowers the count, never below 0, in one transaction.
   */
  async removeEntry(
    db: Db,
    batchId: number,
    entry: QueueEntry,
    status: 'waiting' | 'overflow',
  ): Promise<boolean> {
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: db.table,
                Key: key(batchId),
                UpdateExpression: 'ADD currentCount :minusOne',
                ConditionExpression: '#status = :loading AND currentCount > :zero',
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: { ':minusOne': -1, ':loading': 'loading', ':zero': 0 },
              },
            },
            {
              Update: {
                TableName: db.table,
                Key: activeEntryKey(entry),
                UpdateExpression: 'SET batchId = :null, batchNumber = :null, #status = :status',
                ConditionExpression: 'attribute_exists(pk) AND batchId = :batchId',
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: { ':null': null, ':status': status, ':batchId': batchId },
              },
            },
          ],
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },

  /**
   * Deletes a batched entry (removal) or completes it on its own, lowering the
   * batch count in the same transaction.
   */
  async dropEntry(db: Db, batchId: number, entry: QueueEntry, completeAt?: string): Promise<boolean> {
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: db.table,
                Key: key(batchId),
                UpdateExpression: 'ADD currentCount :minusOne',
                ConditionExpression: '#status = :loading AND currentCount > :zero',
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: { ':minusOne': -1, ':loading': 'loading', ':zero': 0 },
              },
            },
            {
              Delete: {
                TableName: db.table,
                Key: activeEntryKey(entry),
                ConditionExpression: 'batchId = :batchId',
                ExpressionAttributeValues: { ':batchId': batchId },
              },
            },
            ...(completeAt
              ? [{ Put: { TableName: db.table, Item: completedEntry(entry, completeAt).item } }]
              : []),
          ],
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },

  /**
   * Completes a loading batch and every entry in it (they become Recent
   * Pickups), in one transaction. ConflictError when it is no longer loading;
   * false when an entry moved meanwhile (read again and retry).
   */
  async complete(db: Db, batch: Batch, entries: readonly QueueEntry[], endTime: string): Promise<boolean> {
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: db.table,
                Key: key(batch.id),
                UpdateExpression: 'SET #status = :completed, endTime = :endTime',
                ConditionExpression: '#status = :loading AND currentCount = :count',
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: {
                  ':completed': 'completed',
                  ':loading': 'loading',
                  ':endTime': endTime,
                  ':count': entries.length,
                },
              },
            },
            ...entries.flatMap((entry) => [
              {
                Delete: {
                  TableName: db.table,
                  Key: activeEntryKey(entry),
                  ConditionExpression: 'batchId = :batchId',
                  ExpressionAttributeValues: { ':batchId': batch.id },
                },
              },
              { Put: { TableName: db.table, Item: completedEntry(entry, endTime).item } },
            ]),
          ],
        }),
      );
      return true;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const current = await batches.get(db, batch.id);
      if (current?.status !== 'loading')
        throw new ConflictError(`Batch #${batch.batchNumber} is already completed`);
      return false;
    }
  },
};
