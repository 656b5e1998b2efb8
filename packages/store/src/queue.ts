import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import {
  ConflictError,
  eventEntryOf,
  orderQueue,
  type QueueEntry,
  type QueueStatus,
  type Recording,
  type ReleaseMark,
  type VehicleType,
} from '@curbside/domain';
import { rewritePartition } from './batch-write';
import type { Db } from './db';
import { eventPuts, meterTransactionSurcharge, TRANSACTION_ITEM_LIMIT } from './dismissal-event';
import { itemAt, type KeyedRead, keyedReads } from './keyed-read';
import { isConditionFailure, queryAll } from './query';
import {
  activeEntryKey,
  activeItem,
  activeSk,
  completedEntryOf,
  completedVisit,
  conflictFor,
  donePartition,
  fromItem,
  heldTo,
  keyedLookup,
  lookup,
  newEntryId,
  notCalledOf,
  parseEntryId,
  partition,
  removedVisit,
  visitEnded,
  visitSk,
  waitingIndex,
  waitingPartition,
  waitsForBatch,
} from './queue-items';

/** The queue's keys, items and visit records live in `queue-items.ts` (its module comment says how a session's queue is kept). */
export {
  activeEntryKey,
  activeItem,
  completedEntryOf,
  completedVisit,
  conflictFor,
  heldTo,
  newEntryId,
  parseEntryId,
  type RemovedVisit,
  removedVisit,
  type Visit,
  visitEnded,
  visitedKey,
  waitingIndex,
} from './queue-items';

export type NewQueueEntry = Omit<
  QueueEntry,
  'id' | 'position' | 'status' | 'batchId' | 'batchNumber' | 'exitTime' | 'version'
>;

/**
 * The children's picked-up marks (`releases.pickUpItems`) a car's completion
 * writes in its own transaction (issue 54: no call of their own): 100 items,
 * less the slot's delete, the visit's put, the car's marker (h54zb), its event,
 * the Idempotency-Key's claim and, for a car picked up from its batch, the
 * batch's count (h54zd), with room to spare. A vehicle with more
 * children writes them after.
 */
export const PICKUPS_IN_COMPLETION = TRANSACTION_ITEM_LIMIT - 10;

export const queue = {
  /** Rewrites a session's entries and visits (a student's erasure, issue 55: their name leaves them). */
  async rewriteSession(
    db: Db,
    sessionId: number,
    rewrite: (item: Record<string, unknown>) => Record<string, unknown>,
  ): Promise<number> {
    return rewritePartition(db, partition(sessionId), rewrite);
  },

  /**
   * A new visit of a vehicle as `add` writes it (its id given now): for a
   * caller that must know the entry before its transaction (its answer kept
   * in the Idempotency-Key's claim, ADR 0027).
   */
  entryOf(input: NewQueueEntry): QueueEntry {
    const number = input.vehicleNumber.toUpperCase();
    return {
      ...input,
      id: newEntryId(input.sessionId, input.vehicleType, number, input.entryTime),
      vehicleNumber: number,
      status: 'waiting',
      batchId: null,
      batchNumber: null,
      position: null,
      exitTime: null,
      version: 1,
    };
  },

  /**
   * Adds a vehicle as a new visit (`input`, or an entry `entryOf` made), with its record (`vehicle_queued`, or
   * `vehicle_requeued` when the car already had a visit in this session), in
   * one transaction; ConflictError when it is already in this session's queue.
   */
  /** The refusal of a vehicle that has a visit in the session's queue now. */
  alreadyQueued: (number: string) => new ConflictError(`Vehicle ${number} is already in the queue`),

  async add(
    db: Db,
    input: NewQueueEntry | QueueEntry,
    recording: Recording,
    requeue = false,
  ): Promise<QueueEntry> {
    const entry = 'id' in input ? input : queue.entryOf(input);
    const number = entry.vehicleNumber;
    const item = activeItem(entry);
    meterTransactionSurcharge(item);
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: db.table,
                Item: item,
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            ...eventPuts(
              db,
              entry,
              entry.entryTime,
              [
                {
                  kind: requeue ? 'vehicle_requeued' : 'vehicle_queued',
                  entries: [{ ...eventEntryOf(entry), ...notCalledOf(entry) }],
                },
              ],
              recording,
            ),
          ],
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw queue.alreadyQueued(number);
      throw error;
    }
    return entry;
  },

  /** The vehicle's visit now in the session's queue, if any (its slot, read consistently). */
  async activeOf(
    db: Db,
    sessionId: number,
    type: VehicleType,
    number: string,
  ): Promise<QueueEntry | undefined> {
    const { Item } = await db.doc.send(
      new GetCommand({
        TableName: db.table,
        Key: { pk: partition(sessionId), sk: activeSk(type, number) },
        ConsistentRead: true,
      }),
    );
    return Item ? fromItem(Item) : undefined;
  },

  /**
   * Whether the car had an earlier visit in the session (picked up or removed): one Query, one item at most.
   * For a session begun before the visits' markers (`visitedKey`); a later one reads its marker by key.
   */
  async visitedBefore(db: Db, sessionId: number, type: VehicleType, number: string): Promise<boolean> {
    const { Items = [] } = await db.doc.send(
      new QueryCommand({
        TableName: db.table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: {
          ':pk': partition(sessionId),
          ':prefix': `${visitSk(`${sessionId}-${type}-${number.toUpperCase()}-`)}`,
        },
        ProjectionExpression: 'id',
        Limit: 1,
      }),
    );
    return Items.length > 0;
  },

  /**
   * Puts the markers of visits that ended (`visitEnded`) in one transaction
   * (at most 100): for a batch whose completion had no room for them.
   */
  async visitsEnded(db: Db, entries: readonly QueueEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await db.doc.send(
      new TransactWriteCommand({ TransactItems: entries.map((entry) => visitEnded(db.table, entry)) }),
    );
  },

  /**
   * The entry's dense place in its type's line as the list shows it now: one
   * Query of the type's active entries (ids and entry times only are used).
   */
  async positionOf(db: Db, entry: QueueEntry): Promise<number> {
    const items = await queryAll(db, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: {
        ':pk': partition(entry.sessionId),
        ':prefix': `ENTRY#${entry.vehicleType}#`,
      },
      ProjectionExpression: 'id, entryTime',
    });
    const ahead = items.filter(
      (item) =>
        item.id !== entry.id &&
        ((item.entryTime as string) < entry.entryTime ||
          (item.entryTime === entry.entryTime && (item.id as string) < entry.id)),
    );
    return ahead.length + 1;
  },

  /** How the visit with this id stands (active, picked up or removed); undefined when no such visit was ever made. */
  lookup,

  /** `lookup` as a keyed read, in a BatchGetItem shared with others (the caller's sign-in read). */
  keyedLookup,

  /** An active or completed entry by id (a removed visit answers undefined). */
  async get(db: Db, id: string): Promise<QueueEntry | undefined> {
    const visit = await lookup(db, id);
    return visit && visit.state !== 'removed' ? visit.entry : undefined;
  },

  /**
   * Visits by id, read consistently by key (BatchGetItem): still queued
   * (`active`) or completed pickups. Ids not in that state are left out; the
   * answer is in arrival order.
   */
  async byIds(db: Db, ids: readonly string[], state: 'active' | 'completed'): Promise<QueueEntry[]> {
    return keyedReads.run(db, queue.keyedByIds(ids, state));
  },

  /** `byIds` as a keyed read (consistent), in a BatchGetItem shared with others (a batch's release marks). */
  keyedByIds(ids: readonly string[], state: 'active' | 'completed'): KeyedRead<QueueEntry[]> {
    const keys = ids.flatMap((id) => {
      const parsed = parseEntryId(id);
      return parsed ? [state === 'active' ? parsed.slot : parsed.visit] : [];
    });
    const wanted = new Set(ids);
    return {
      keys,
      consistent: true,
      from: (found) =>
        keys
          .flatMap((key): Record<string, unknown>[] => {
            const item = itemAt(found, key);
            return item ? [item] : [];
          })
          .filter((item) => wanted.has(item.id as string) && item.entity === 'queueEntry')
          .map(fromItem)
          .sort((a, b) =>
            a.entryTime === b.entryTime ? (a.id < b.id ? -1 : 1) : a.entryTime < b.entryTime ? -1 : 1,
          ),
    };
  },

  /** Active entries in queue order with dense positions per vehicle type. */
  async listActive(db: Db, sessionId: number): Promise<QueueEntry[]> {
    const items = await queryAll(db, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': partition(sessionId), ':prefix': 'ENTRY#' },
    });
    return orderQueue(items.map(fromItem));
  },

  /** Completed pickups, newest first, under the ids they had while queued. */
  async listCompleted(db: Db, sessionId: number, limit = 200): Promise<QueueEntry[]> {
    const items = await queryAll(
      db,
      {
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': donePartition(sessionId) },
        ScanIndexForward: false,
      },
      limit,
    );
    return items.map(fromItem);
  },

  /**
   * The first entries of a type waiting for a batch, in arrival order: one
   * Query of the waiting line (gsi1), at most `limit` items. The index lags
   * the table by a moment, so callers hold their write to what they read.
   */
  async waitingForBatch(
    db: Db,
    sessionId: number,
    type: VehicleType,
    limit: number,
    after?: Record<string, unknown>,
  ): Promise<{ entries: QueueEntry[]; next: Record<string, unknown> | undefined }> {
    const { Items = [], LastEvaluatedKey } = await db.doc.send(
      new QueryCommand({
        TableName: db.table,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': waitingPartition(sessionId, type) },
        Limit: limit,
        ...(after ? { ExclusiveStartKey: after } : {}),
      }),
    );
    return { entries: Items.map(fromItem), next: LastEvaluatedKey };
  },

  /**
   * Removes an active, batch-less entry as the caller read it (the car left,
   * or staff removed it); its visit is kept as removed, and the record says why.
   */
  async remove(
    db: Db,
    entry: QueueEntry,
    recording: Recording,
    reason: 'left' | 'removed' = 'removed',
    removedAt = new Date().toISOString(),
  ): Promise<QueueEntry> {
    const held = heldTo(entry);
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Delete: {
                TableName: db.table,
                Key: activeEntryKey(entry),
                ConditionExpression: held.condition,
                ExpressionAttributeValues: held.values,
              },
            },
            { Put: { TableName: db.table, Item: removedVisit(entry, removedAt) } },
            visitEnded(db.table, entry),
            ...eventPuts(db, entry, removedAt, [{ kind: reason, entries: [eventEntryOf(entry)] }], recording),
          ],
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw await conflictFor(db, entry);
      throw error;
    }
    return { ...entry, version: entry.version + 1 };
  },

  /**
   * Changes an active entry's status (and batch), held to the visit and
   * version the caller read, so two tablets cannot both apply a change. The
   * entry joins the waiting line when it waits for a batch and leaves it otherwise.
   */
  async update(
    db: Db,
    entry: QueueEntry,
    change: { status: Exclude<QueueStatus, 'completed'>; batchId: number | null; batchNumber: number | null },
    recording: Recording,
  ): Promise<QueueEntry> {
    const held = heldTo(entry);
    const waits = waitsForBatch(change);
    const at = new Date().toISOString();
    const updated: QueueEntry = {
      ...entry,
      status: change.status,
      batchId: change.batchId,
      batchNumber: change.batchNumber,
      position: null,
      version: entry.version + 1,
    };
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: db.table,
                Key: activeEntryKey(entry),
                UpdateExpression: `SET #status = :status, batchId = :batchId, batchNumber = :batchNumber${
                  waits ? ', gsi1pk = :waitPk, gsi1sk = :waitSk' : ''
                } ADD version :one${waits ? '' : ' REMOVE gsi1pk, gsi1sk'}`,
                ConditionExpression: held.condition,
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: {
                  ...held.values,
                  ':status': change.status,
                  ':batchId': change.batchId,
                  ':batchNumber': change.batchNumber,
                  ':one': 1,
                  ...(waits
                    ? {
                        ':waitPk': waitingIndex(entry).gsi1pk,
                        ':waitSk': waitingIndex(entry).gsi1sk,
                      }
                    : {}),
                },
              },
            },
            ...eventPuts(
              db,
              entry,
              at,
              [
                {
                  kind: change.status === 'overflow' ? 'moved_to_overflow' : 'status_changed',
                  entries: [eventEntryOf(entry)],
                  status: { from: entry.status, to: change.status },
                },
              ],
              recording,
            ),
          ],
        }),
      );
      return updated;
    } catch (error) {
      if (isConditionFailure(error)) throw await conflictFor(db, entry);
      throw error;
    }
  },

  /**
   * Completes a pickup: records exitTime and keeps the visit as completed,
   * with its record (each child's release from `marks`, the session's release
   * marks), in one transaction; with `pickups` (at most `PICKUPS_IN_COMPLETION`),
   * its children's picked-up marks in it too.
   */
  async complete(
    db: Db,
    entry: QueueEntry,
    recording: Recording,
    exitTime = new Date().toISOString(),
    marks?: ReadonlyMap<number, ReleaseMark>,
    pickups: readonly Record<string, unknown>[] = [],
  ): Promise<QueueEntry> {
    if (pickups.length > PICKUPS_IN_COMPLETION) throw new Error('Too many pickup marks for one transaction');
    const { completed, item } = completedVisit(entry, exitTime);
    const held = heldTo(entry);
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Delete: {
                TableName: db.table,
                Key: activeEntryKey(entry),
                ConditionExpression: held.condition,
                ExpressionAttributeValues: held.values,
              },
            },
            { Put: { TableName: db.table, Item: item } },
            visitEnded(db.table, entry),
            ...pickups.map((pickup) => ({ Put: { TableName: db.table, Item: pickup } })),
            ...eventPuts(
              db,
              entry,
              exitTime,
              [{ kind: 'picked_up', entries: [completedEntryOf(entry, marks)] }],
              recording,
            ),
          ],
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw await conflictFor(db, entry);
      throw error;
    }
    return completed;
  },
};
