import { randomInt } from 'node:crypto';
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import {
  ConflictError,
  changedMeanwhileError,
  completedEventEntry,
  eventEntryOf,
  orderQueue,
  type QueueEntry,
  type QueueStatus,
  type Recording,
  type ReleaseMark,
  type VehicleType,
  visitEndedError,
} from '@curbside/domain';
import { getAll, rewritePartition } from './batch-write';
import type { Db } from './db';
import { eventPuts, meterTransactionSurcharge } from './dismissal-event';
import { stripKeys } from './ids';
import { isConditionFailure, queryAll } from './query';

/**
 * Queue entries of a session, all in one partition `QUEUE#{sessionId}`. An
 * entry is one visit of a car: its id is given when the car is queued,
 * `{sessionId}-{type}-{NUMBER}-{entryMs}-{nonce}`, and names that visit for
 * life (batching, overflow, completion). A car queued again later in the
 * session is a new visit with a new id.
 * - active (waiting, ready, overflow): sk `ENTRY#{type}#{NUMBER}`, the car's
 *   one slot in the session: the add is one conditional PutItem, so a car is
 *   never queued twice at once. While the entry is waiting and in no batch it
 *   is also in the waiting line of its type (gsi1, below), so the add writes
 *   1 unit to the table and 1 to the index.
 * - ended visits: sk `VISIT#{id}`, written in the same transaction that frees
 *   the slot: a completed pickup keeps the whole entry (and is listed newest
 *   first on gsi1 `QUEUE#{sessionId}#DONE`); a removed visit keeps a small
 *   record (what it was, when it was removed) that expires after 30 days.
 *   Reading the active queue never reads them.
 * Every write to an entry is held to the id and version the caller read, so
 * a write aimed at an earlier visit never lands on a later one.
 */
const partition = (sessionId: number) => `QUEUE#${sessionId}`;
const activeSk = (type: VehicleType, number: string) => `ENTRY#${type}#${number.toUpperCase()}`;
const visitSk = (id: string) => `VISIT#${id}`;
const waitingPartition = (sessionId: number, type: VehicleType) => `QUEUE#${sessionId}#WAITING#${type}`;
const donePartition = (sessionId: number) => `QUEUE#${sessionId}#DONE`;
const REMOVED_KEPT_SECONDS = 30 * 24 * 60 * 60;
const NONCE_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A new visit's id: the car, the session, the moment it was queued and a nonce (never reused). */
export const newEntryId = (sessionId: number, type: VehicleType, number: string, entryTime: string) => {
  const nonce = Array.from({ length: 3 }, () => NONCE_ALPHABET[randomInt(NONCE_ALPHABET.length)]).join('');
  return `${sessionId}-${type}-${number.toUpperCase()}-${Date.parse(entryTime)}-${nonce}`;
};

/** The session, vehicle and slot key an id names; undefined for anything that is not a visit id. */
export const parseEntryId = (id: string) => {
  const match = /^(\d+)-(car|bus)-([A-Z0-9]+)-(\d{1,15})-([a-z0-9]{3})$/.exec(id);
  if (!match) return undefined;
  const sessionId = Number(match[1]);
  const type = match[2] as VehicleType;
  const number = match[3] as string;
  return {
    sessionId,
    type,
    number,
    slot: { pk: partition(sessionId), sk: activeSk(type, number) },
    visit: { pk: partition(sessionId), sk: visitSk(id) },
  };
};

/** The key of an active entry: for the batch module's transactions only. */
export const activeEntryKey = (entry: Pick<QueueEntry, 'sessionId' | 'vehicleType' | 'vehicleNumber'>) => ({
  pk: partition(entry.sessionId),
  sk: activeSk(entry.vehicleType, entry.vehicleNumber),
});

/** The waiting-line index attributes of an entry that waits for a batch (gsi1, ordered by arrival). */
export const waitingIndex = (
  entry: Pick<QueueEntry, 'sessionId' | 'vehicleType' | 'vehicleNumber' | 'entryTime'>,
) => ({
  gsi1pk: waitingPartition(entry.sessionId, entry.vehicleType),
  gsi1sk: `${entry.entryTime}#${entry.vehicleNumber}`,
});

const waitsForBatch = (entry: Pick<QueueEntry, 'status' | 'batchId'>) =>
  entry.status === 'waiting' && entry.batchId === null;

/**
 * A condition holding a write to the visit and version the caller read. The
 * placeholders are prefixed so a transaction can add its own.
 */
export const heldTo = (entry: Pick<QueueEntry, 'id' | 'version'>) => ({
  condition: 'attribute_exists(pk) AND id = :heldId AND version = :heldVersion',
  values: { ':heldId': entry.id, ':heldVersion': entry.version },
});

/** How a visit stands: still in the queue, picked up, or removed. */
export type Visit =
  | { state: 'active'; entry: QueueEntry }
  | { state: 'pickedUp'; entry: QueueEntry }
  | { state: 'removed'; entry: RemovedVisit };

/** What is kept of a visit removed from the queue (without a pickup). */
export interface RemovedVisit {
  id: string;
  sessionId: number;
  schoolId: number;
  vehicleNumber: string;
  vehicleType: VehicleType;
  removedAt: string;
}

/**
 * An entry as completed at `exitTime`: the entry answered to callers and its
 * item under `VISIT#{id}` (listed with the session's pickups). Used by this
 * module and by the batch module's transactions.
 */
export const completedVisit = (entry: QueueEntry, exitTime: string) => {
  const completed: QueueEntry = {
    ...entry,
    status: 'completed',
    position: null,
    exitTime,
    version: entry.version + 1,
  };
  const { position: _, ...stored } = completed;
  const item = {
    pk: partition(entry.sessionId),
    sk: visitSk(entry.id),
    gsi1pk: donePartition(entry.sessionId),
    gsi1sk: `${exitTime}#${entry.id}`,
    entity: 'queueEntry',
    ...stored,
  };
  return { completed, item };
};

/** The record a removed visit leaves behind (for the batch module's transactions too). */
export const removedVisit = (entry: QueueEntry, removedAt: string) => {
  const record: RemovedVisit = {
    id: entry.id,
    sessionId: entry.sessionId,
    schoolId: entry.schoolId,
    vehicleNumber: entry.vehicleNumber,
    vehicleType: entry.vehicleType,
    removedAt,
  };
  const { position: _, ...stored } = entry;
  return {
    pk: partition(entry.sessionId),
    sk: visitSk(entry.id),
    entity: 'removedVisit',
    ...record,
    // The entry as it was, so Undo can put it back (`restore.ts`).
    entry: stored,
    ttl: Math.ceil(Date.parse(removedAt) / 1000) + REMOVED_KEPT_SECONDS,
  };
};

/** A completed visit as its `picked_up` event names it: with each child's release when the marks were read. */
export const completedEntryOf = (entry: QueueEntry, marks: ReadonlyMap<number, ReleaseMark> | undefined) =>
  marks ? completedEventEntry(entry, marks) : eventEntryOf(entry);

/** The children a visit does not call today, as its queued event records them (issue 52): who, and why. */
const notCalledOf = (entry: QueueEntry) =>
  entry.notCalled && entry.notCalled.length > 0
    ? {
        notCalled: entry.notCalled.map(({ id, firstName, lastName, grade, classroomId, reason }) => ({
          id,
          firstName,
          lastName,
          grade,
          classroomId,
          reason,
        })),
      }
    : {};

const fromItem = (item: Record<string, unknown>): QueueEntry => ({
  ...stripKeys<QueueEntry>(item),
  position: null,
});

/** The active item of an entry: the entry with its keys (and its place in the waiting line). */
export const activeItem = (entry: QueueEntry) => {
  const { position: _, ...stored } = entry;
  return {
    ...activeEntryKey(entry),
    ...(waitsForBatch(entry) ? waitingIndex(entry) : {}),
    entity: 'queueEntry',
    ...stored,
  };
};

/** How a visit stands now, read consistently: its slot, then (when the slot holds another visit) its record. */
const lookup = async (db: Db, id: string): Promise<Visit | undefined> => {
  const parsed = parseEntryId(id);
  if (!parsed) return undefined;
  const { Item: slot } = await db.doc.send(
    new GetCommand({ TableName: db.table, Key: parsed.slot, ConsistentRead: true }),
  );
  if (slot?.id === id) return { state: 'active', entry: fromItem(slot) };
  const { Item: ended } = await db.doc.send(
    new GetCommand({ TableName: db.table, Key: parsed.visit, ConsistentRead: true }),
  );
  if (!ended) return undefined;
  return ended.entity === 'removedVisit'
    ? { state: 'removed', entry: stripKeys<RemovedVisit>({ ...ended, entry: undefined }) }
    : { state: 'pickedUp', entry: fromItem(ended) };
};

/**
 * Why a write held to `entry` was refused: the visit ended meanwhile (picked
 * up or removed), or someone else changed it. For this module and the batch
 * module.
 */
export const conflictFor = async (db: Db, entry: QueueEntry): Promise<ConflictError> => {
  const now = await lookup(db, entry.id);
  if (now?.state === 'pickedUp' || now?.state === 'removed') return visitEndedError(entry, now.state);
  return changedMeanwhileError(entry);
};

export type NewQueueEntry = Omit<
  QueueEntry,
  'id' | 'position' | 'status' | 'batchId' | 'batchNumber' | 'exitTime' | 'version'
>;

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
   * Adds a vehicle as a new visit, with its record (`vehicle_queued`, or
   * `vehicle_requeued` when the car already had a visit in this session), in
   * one transaction; ConflictError when it is already in this session's queue.
   */
  async add(db: Db, input: NewQueueEntry, recording: Recording, requeue = false): Promise<QueueEntry> {
    const number = input.vehicleNumber.toUpperCase();
    const entry: QueueEntry = {
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
      if (isConditionFailure(error)) throw new ConflictError(`Vehicle ${number} is already in the queue`);
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

  /** Whether the car had an earlier visit in the session (picked up or removed): one Query, one item at most. */
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
    const keys = ids.flatMap((id) => {
      const parsed = parseEntryId(id);
      return parsed ? [state === 'active' ? parsed.slot : parsed.visit] : [];
    });
    const wanted = new Set(ids);
    const items = await getAll(db, keys, true);
    return items
      .filter((item) => wanted.has(item.id as string) && item.entity === 'queueEntry')
      .map(fromItem)
      .sort((a, b) =>
        a.entryTime === b.entryTime ? (a.id < b.id ? -1 : 1) : a.entryTime < b.entryTime ? -1 : 1,
      );
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
   * marks), in one transaction.
   */
  async complete(
    db: Db,
    entry: QueueEntry,
    recording: Recording,
    exitTime = new Date().toISOString(),
    marks?: ReadonlyMap<number, ReleaseMark>,
  ): Promise<QueueEntry> {
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
