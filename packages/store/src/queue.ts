import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import {
  ConflictError,
  changedMeanwhileError,
  NotFoundError,
  orderQueue,
  type QueueEntry,
  type QueueStatus,
  type VehicleType,
} from '@curbside/domain';
import type { Db } from './db';
import { stripKeys } from './ids';
import { isConditionFailure, queryAll } from './query';

/**
 * Queue entries of a session, all in one partition `QUEUE#{sessionId}`:
 * - active (waiting, ready, overflow): sk `ENTRY#{type}#{NUMBER}`, so a
 *   vehicle is in the queue at most once per session: the add is one
 *   conditional PutItem (1 write unit), with no index to maintain;
 * - completed: sk `DONE#{exitTime}#{type}#{NUMBER}`, moved there in one
 *   transaction, so reading the active queue never reads completed pickups.
 * An entry's id names its key: `{sessionId}-{type}-{NUMBER}`. Positions are
 * not stored: readers number the active entries densely in arrival order.
 */
const partition = (sessionId: number) => `QUEUE#${sessionId}`;
const activeSk = (type: VehicleType, number: string) => `ENTRY#${type}#${number.toUpperCase()}`;

export const entryId = (sessionId: number, type: VehicleType, number: string) =>
  `${sessionId}-${type}-${number.toUpperCase()}`;

const notFound = () => new NotFoundError('Queue entry not found');

const completedSk = (exitTime: string, type: VehicleType, number: string) =>
  `DONE#${exitTime}#${type}#${number}`;

/**
 * The key an entry's id names, or undefined for a malformed id. An active
 * entry's id is `{sessionId}-{type}-{NUMBER}`; a completed one adds the exit
 * time in milliseconds, so a late change to a picked-up car finds it (and is
 * refused as a transition) instead of missing it.
 */
export const parseEntryId = (id: string) => {
  const match = /^(\d+)-(car|bus)-([A-Z0-9]+)(?:-(\d{13}))?$/.exec(id);
  if (!match) return undefined;
  const sessionId = Number(match[1]);
  const type = match[2] as VehicleType;
  const number = match[3] as string;
  const exitTime = match[4] === undefined ? undefined : new Date(Number(match[4])).toISOString();
  const sk = exitTime === undefined ? activeSk(type, number) : completedSk(exitTime, type, number);
  return {
    sessionId,
    type,
    number,
    completed: exitTime !== undefined,
    key: { pk: partition(sessionId), sk },
  };
};

/** The key of an active entry's id; NotFoundError for a completed or malformed one. */
const activeKeyOf = (id: string) => {
  const parsed = parseEntryId(id);
  if (!parsed || parsed.completed) throw notFound();
  return parsed.key;
};

/**
 * Holds a write to an active entry to what the caller read: the same status
 * and the same batch (none, or that one), so a vehicle another tablet put into
 * a batch meanwhile is never changed as if it had none (which would leave the
 * batch's count disagreeing with its entries).
 */
const unchangedSince = (entry: QueueEntry) => ({
  ConditionExpression: `attribute_exists(pk) AND #status = :from AND ${
    entry.batchId === null ? 'attribute_type(batchId, :nullType)' : 'batchId = :seenBatch'
  }`,
  names: { '#status': 'status' },
  values: {
    ':from': entry.status,
    ...(entry.batchId === null ? { ':nullType': 'NULL' } : { ':seenBatch': entry.batchId }),
  },
});

/** The key of an active entry: for the batch module's transactions only. */
export const activeEntryKey = (entry: Pick<QueueEntry, 'sessionId' | 'vehicleType' | 'vehicleNumber'>) => ({
  pk: partition(entry.sessionId),
  sk: activeSk(entry.vehicleType, entry.vehicleNumber),
});

/**
 * An entry as completed at `exitTime`: the entry answered to callers and the
 * item of its row in the completed list (`DONE#…`). Used by this module and
 * by the batch module's transactions.
 */
export const completedEntry = (entry: QueueEntry, exitTime: string) => {
  const completed: QueueEntry = {
    ...entry,
    id: `${entry.id}-${Date.parse(exitTime)}`,
    status: 'completed',
    position: null,
    exitTime,
  };
  const { position: _, ...stored } = completed;
  const item = {
    pk: partition(entry.sessionId),
    sk: completedSk(exitTime, entry.vehicleType, entry.vehicleNumber),
    entity: 'queueEntry',
    ...stored,
  };
  return { completed, item };
};

const fromItem = (item: Record<string, unknown>): QueueEntry => ({
  ...stripKeys<QueueEntry>(item),
  position: null,
});

export type NewQueueEntry = Omit<
  QueueEntry,
  'id' | 'position' | 'status' | 'batchId' | 'batchNumber' | 'exitTime'
>;

/** Entries of a session whose sort key starts with `prefix` (`ENTRY#` or `DONE#`). */
const entriesWith = (db: Db, sessionId: number, prefix: string, newestFirst = false, limit?: number) =>
  queryAll(
    db,
    {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': partition(sessionId), ':prefix': prefix },
      ScanIndexForward: !newestFirst,
    },
    limit,
  );

export const queue = {
  /** Adds a vehicle; ConflictError when it is already in this session's queue. */
  async add(db: Db, input: NewQueueEntry): Promise<QueueEntry> {
    const number = input.vehicleNumber.toUpperCase();
    const entry: QueueEntry = {
      ...input,
      id: entryId(input.sessionId, input.vehicleType, number),
      vehicleNumber: number,
      status: 'waiting',
      batchId: null,
      batchNumber: null,
      position: null,
      exitTime: null,
    };
    const { position: _, ...stored } = entry;
    try {
      await db.doc.send(
        new PutCommand({
          TableName: db.table,
          Item: {
            pk: partition(input.sessionId),
            sk: activeSk(input.vehicleType, number),
            entity: 'queueEntry',
            ...stored,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw new ConflictError(`Vehicle ${number} is already in the queue`);
      throw error;
    }
    return entry;
  },

  async get(db: Db, id: string): Promise<QueueEntry | undefined> {
    const parsed = parseEntryId(id);
    if (!parsed) return undefined;
    const { Item } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: parsed.key, ConsistentRead: true }),
    );
    return Item ? fromItem(Item) : undefined;
  },

  /** Active entries in queue order with dense positions per vehicle type. */
  async listActive(db: Db, sessionId: number): Promise<QueueEntry[]> {
    return orderQueue((await entriesWith(db, sessionId, 'ENTRY#')).map(fromItem));
  },

  /** Completed pickups, newest first. */
  async listCompleted(db: Db, sessionId: number, limit = 200): Promise<QueueEntry[]> {
    return (await entriesWith(db, sessionId, 'DONE#', true, limit)).map(fromItem);
  },

  /**
   * Entries completed at one instant: a batch's pickups all carry its end
   * time, so a completed batch's vehicles are read without the session's
   * other pickups.
   */
  async listCompletedAt(db: Db, sessionId: number, exitTime: string): Promise<QueueEntry[]> {
    return (await entriesWith(db, sessionId, `DONE#${exitTime}#`)).map(fromItem);
  },

  /** Removes an active, batch-less entry as the caller read it; answers what was removed. */
  async remove(db: Db, entry: QueueEntry): Promise<QueueEntry> {
    const condition = unchangedSince(entry);
    try {
      const { Attributes } = await db.doc.send(
        new DeleteCommand({
          TableName: db.table,
          Key: activeKeyOf(entry.id),
          ConditionExpression: condition.ConditionExpression,
          ExpressionAttributeNames: condition.names,
          ExpressionAttributeValues: condition.values,
          ReturnValues: 'ALL_OLD',
        }),
      );
      return fromItem(Attributes ?? {});
    } catch (error) {
      if (isConditionFailure(error)) throw changedMeanwhileError(entry);
      throw error;
    }
  },

  /**
   * Changes an active entry's status (and batch), on condition that it still
   * has the status and batch the caller saw, so two tablets cannot both apply
   * a change.
   */
  async update(
    db: Db,
    entry: QueueEntry,
    change: { status: Exclude<QueueStatus, 'completed'>; batchId: number | null; batchNumber: number | null },
  ): Promise<QueueEntry> {
    const condition = unchangedSince(entry);
    try {
      const { Attributes } = await db.doc.send(
        new UpdateCommand({
          TableName: db.table,
          Key: activeKeyOf(entry.id),
          UpdateExpression: 'SET #status = :status, batchId = :batchId, batchNumber = :batchNumber',
          ConditionExpression: condition.ConditionExpression,
          ExpressionAttributeNames: condition.names,
          ExpressionAttributeValues: {
            ...condition.values,
            ':status': change.status,
            ':batchId': change.batchId,
            ':batchNumber': change.batchNumber,
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return fromItem(Attributes ?? {});
    } catch (error) {
      if (isConditionFailure(error)) throw changedMeanwhileError(entry);
      throw error;
    }
  },

  /** Completes a pickup: records exitTime and moves the entry to the completed list, in one transaction. */
  async complete(db: Db, entry: QueueEntry, exitTime = new Date().toISOString()): Promise<QueueEntry> {
    const { completed, item } = completedEntry(entry, exitTime);
    const condition = unchangedSince(entry);
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Delete: {
                TableName: db.table,
                Key: activeKeyOf(entry.id),
                ConditionExpression: condition.ConditionExpression,
                ExpressionAttributeNames: condition.names,
                ExpressionAttributeValues: condition.values,
              },
            },
            { Put: { TableName: db.table, Item: item } },
          ],
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw changedMeanwhileError(entry);
      throw error;
    }
    return completed;
  },
};
