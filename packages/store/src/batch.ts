import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type {
  Batch,
  QueueEntry,
  Recording,
  ReleaseMark,
  StudentSummary,
  VehicleType,
} from '@curbside/domain';
import { ConflictError, eventEntryOf } from '@curbside/domain';
import type { Db } from './db';
import { eventPuts, packEntries, TRANSACTION_ITEM_LIMIT } from './dismissal-event';
import { nextId, stripKeys } from './ids';
import { itemAt, type KeyedRead } from './keyed-read';
import { cancellationReasons, isConditionFailure, queryAll } from './query';
import {
  activeEntryKey,
  completedEntryOf,
  completedVisit,
  conflictFor,
  heldTo,
  PICKUPS_IN_COMPLETION,
  queue,
  removedVisit,
  visitEnded,
  waitingIndex,
} from './queue';
import { forgetAnswerInTheClaim } from './transaction-claim';

/**
 * Batch: `BATCH#{id}` / `BATCH`, with the ids of the entries in it
 * (`memberIds`, a string set) and their children (`riders`, a string set of
 * `{studentId}:{classroomId}`: where each child's release mark is, so a
 * completion reads the marks beside the entries; a hint, kept by the batch's
 * own writes: a child it lacks is read after), so a batch's vehicles are read by key, never
 * by reading the queue.
 * Batches of a session in number order: gsi1 `SESSION#{sessionId}#BATCHES` / `{batchNumber:06}`.
 * Batch numbers count per session: `SESSION#{sessionId}` / `BATCH_SEQ` raised with ADD.
 * Moving entries in and out of a batch changes the entry, the batch's count
 * and its members in one transaction, conditioned on the batch loading with
 * room and on the entry being the visit and version the caller read.
 */
const key = (id: number) => ({ pk: `BATCH#${id}`, sk: 'BATCH' });

/**
 * Batch ids (issue 54: a new batch takes one counter, its number, not two).
 * Ids the `batch` counter gave (every batch before, and a session's batches
 * past `NUMBERS_PER_LINE`) count up from 1, one a batch, and stay far below
 * `DERIVED_IDS_FROM`; every other id is derived from its session, type and
 * number, at or above it, so the two ranges never meet:
 *
 *   id = DERIVED_IDS_FROM + (sessionId × 2 + type) × NUMBERS_PER_LINE + batchNumber
 *
 * (type: 0 a car batch, 1 a bus batch). A session's numbers are unique (its
 * counter), so derived ids are too; every id stays a safe integer. The id
 * also names the line the batch loads from (`lineOfBatchId`).
 */
export const DERIVED_IDS_FROM = 1e15;
export const NUMBERS_PER_LINE = 10_000;
const TYPES: readonly VehicleType[] = ['car', 'bus'];

/** A new batch's derived id, or undefined where none fits (then the id counter gives one). */
export const batchIdOf = (sessionId: number, type: VehicleType, batchNumber: number): number | undefined => {
  if (!Number.isSafeInteger(batchNumber) || batchNumber < 1 || batchNumber >= NUMBERS_PER_LINE)
    return undefined;
  const id = DERIVED_IDS_FROM + (sessionId * 2 + TYPES.indexOf(type)) * NUMBERS_PER_LINE + batchNumber;
  return Number.isSafeInteger(id) ? id : undefined;
};

/** The session and vehicle type a derived batch id names (undefined for an id the counter gave). */
export const lineOfBatchId = (id: number): { sessionId: number; vehicleType: VehicleType } | undefined => {
  if (!Number.isSafeInteger(id) || id <= DERIVED_IDS_FROM) return undefined;
  const line = Math.floor((id - DERIVED_IDS_FROM) / NUMBERS_PER_LINE);
  const sessionId = Math.floor(line / 2);
  const vehicleType = TYPES[line % 2];
  return sessionId >= 1 && vehicleType ? { sessionId, vehicleType } : undefined;
};

const fromItem = (item: Record<string, unknown>): Batch => {
  const {
    memberIds: _,
    riders: __,
    ...batch
  } = stripKeys<Batch & { memberIds?: unknown; riders?: unknown }>(item);
  return batch;
};
const membersOf = (item: Record<string, unknown>): string[] => [
  ...((item.memberIds as Set<string> | undefined) ?? []),
];

/** A child in a batch, as a batch keeps them (`riders`): where their release mark is, read before the entries. */
type Rider = Pick<StudentSummary, 'id' | 'classroomId'>;
const riderOf = ({ id, classroomId }: Rider) => `${id}:${classroomId ?? ''}`;
const ridersIn = (entries: readonly Pick<QueueEntry, 'students'>[]) =>
  new Set(entries.flatMap((entry) => entry.students.map(riderOf)));
const ridersOf = (item: Record<string, unknown>): Rider[] =>
  [...((item.riders as Set<string> | undefined) ?? [])].map((rider) => {
    const [id, classroomId] = rider.split(':');
    return { id: Number(id), classroomId: classroomId ? Number(classroomId) : null };
  });

/** The batch side of moving one entry out: count down (never below 0), version up, member out. */
const batchLosesEntry = (db: Db, batchId: number, entry: QueueEntry) => {
  const riders = ridersIn([entry]);
  return {
    Update: {
      TableName: db.table,
      Key: key(batchId),
      UpdateExpression: `ADD currentCount :minusOne, version :one DELETE memberIds :member${
        riders.size > 0 ? ', riders :riders' : ''
      }`,
      ConditionExpression: '#status = :loading AND currentCount > :zero',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':minusOne': -1,
        ':one': 1,
        ':loading': 'loading',
        ':zero': 0,
        ':member': new Set([entry.id]),
        ...(riders.size > 0 ? { ':riders': riders } : {}),
      },
    },
  };
};

type NewBatch = { sessionId: number; schoolId: number; vehicleType: VehicleType; maxCapacity: number };

const batchItem = (batch: Batch, entries: readonly QueueEntry[]) => {
  const riders = ridersIn(entries);
  return {
    ...key(batch.id),
    gsi1pk: `SESSION#${batch.sessionId}#BATCHES`,
    gsi1sk: String(batch.batchNumber).padStart(6, '0'),
    entity: 'batch',
    ...batch,
    ...(entries.length > 0 ? { memberIds: new Set(entries.map((entry) => entry.id)) } : {}),
    ...(riders.size > 0 ? { riders } : {}),
  };
};

/** The entry side of moving a waiting, batch-less entry (as read) into a batch. */
const entryJoins = (db: Db, batch: Batch, entry: QueueEntry) => {
  const held = heldTo(entry);
  return {
    Update: {
      TableName: db.table,
      Key: activeEntryKey(entry),
      UpdateExpression:
        'SET batchId = :batchId, batchNumber = :batchNumber ADD version :one REMOVE gsi1pk, gsi1sk',
      ConditionExpression: `${held.condition} AND #status = :waiting AND attribute_type(batchId, :null) AND vehicleType = :type`,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ...held.values,
        ':batchId': batch.id,
        ':batchNumber': batch.batchNumber,
        ':one': 1,
        ':waiting': 'waiting',
        ':null': 'NULL',
        ':type': batch.vehicleType,
      },
    },
  };
};

/** A batch item as a batch and the ids of the entries in it. */
const withMembersOf = (item: Record<string, unknown> | undefined) =>
  item ? { batch: fromItem(item), memberIds: membersOf(item), riders: ridersOf(item) } : undefined;

/** A batch, the ids of the entries in it, and their children as the batch keeps them (`riders`). */
export type BatchWithMembers = NonNullable<ReturnType<typeof withMembersOf>>;

/**
 * Whether a batch completion's transaction holds its cars' visit markers
 * (`visitEnded`, a third item a car beside its slot and visit): up to 29
 * cars, within `PICKUPS_IN_COMPLETION` with the batch. A bigger batch (its
 * capacity is at most 40) has them written right after its completion
 * (`queue.visitsEnded`).
 */
const markersFitBatch = (entries: number) => 1 + 3 * entries <= PICKUPS_IN_COMPLETION;

/** The items a batch completion's transaction holds a car: its slot, its visit, and its marker when they fit. */
const itemsPerCar = (entries: number) => (markersFitBatch(entries) ? 3 : 2);

/**
 * Whether a batch completion's transaction holds its children's picked-up
 * marks too: the batch, each entry's slot, visit and marker (`itemsPerCar`),
 * and the marks within `PICKUPS_IN_COMPLETION` (the rest of the 100 items for
 * its events and the Idempotency-Key's claim). A bigger batch writes its marks after.
 */
const pickupsFitBatch = (entries: number, pickups: number) =>
  pickups === 0 || 1 + itemsPerCar(entries) * entries + pickups <= PICKUPS_IN_COMPLETION;

/**
 * The batch side of moving one entry in (adding to a batch, Undo putting a
 * car back in its batch): count and version up, the member and its children
 * (`riders`) in, while it loads with room; `held`: and only while it is the
 * version read (so the batch after it is the one read with one more).
 */
export const batchGainsEntry = (db: Db, batch: Batch, entry: QueueEntry, held: boolean) => {
  const riders = ridersIn([entry]);
  return {
    Update: {
      TableName: db.table,
      Key: key(batch.id),
      UpdateExpression: `ADD currentCount :one, version :one, memberIds :member${
        riders.size > 0 ? ', riders :riders' : ''
      }`,
      ConditionExpression: `#status = :loading AND currentCount < maxCapacity${
        held ? ' AND version = :version' : ''
      }`,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':one': 1,
        ':loading': 'loading',
        ...(held ? { ':version': batch.version } : {}),
        ':member': new Set([entry.id]),
        ...(riders.size > 0 ? { ':riders': riders } : {}),
      },
    },
  };
};

/** A batch as it is after `batchGainsEntry` held to the version read. */
export const batchAfterGain = (batch: Batch): Batch => ({
  ...batch,
  currentCount: batch.currentCount + 1,
  version: batch.version + 1,
});

/**
 * One try of `batches.addEntry`, `held` to the batch's version as read (then
 * answering the batch as it is after it) or only to its room: 'taken' (the
 * entry is no longer as read) or 'moved' (the batch is not as held: its
 * state decides).
 */
const joinOnce = async (
  db: Db,
  batch: Batch,
  entry: QueueEntry,
  recording: Recording,
  held: boolean,
): Promise<Batch | 'taken' | 'moved'> => {
  try {
    await db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          batchGainsEntry(db, batch, entry, held),
          entryJoins(db, batch, entry),
          ...eventPuts(
            db,
            batch,
            new Date().toISOString(),
            [
              {
                kind: 'batched',
                batch: { id: batch.id, number: batch.batchNumber },
                entries: [eventEntryOf(entry)],
              },
            ],
            recording,
          ),
        ],
      }),
    );
    return batchAfterGain(batch);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return cancellationReasons(error)[0] === 'ConditionalCheckFailed' ? 'moved' : 'taken';
  }
};

export const batches = {
  /** `pickupsFitBatch`: a completion's picked-up marks in its own transaction. */
  pickupsFit: pickupsFitBatch,

  /** `markersFitBatch`: a completion's visit markers in its own transaction. */
  markersFit: markersFitBatch,

  /** The batch as it is once `addEntry`'s first try (held to the batch as read) committed. */
  afterGain: batchAfterGain,

  /** A new, empty batch (loading). */
  async create(db: Db, input: NewBatch, recording: Recording): Promise<Batch> {
    const batch = await batches.allocate(db, input);
    await batches.putFilled(db, batch, [], recording);
    return batch;
  },

  /**
   * A batch's number, taken from the session's counter, and its id, derived
   * from the session, the type and the number (`batchIdOf`: one UpdateItem;
   * the id counter only past `NUMBERS_PER_LINE` batches in a session); nothing
   * is written for the batch yet.
   */
  async allocate(db: Db, input: NewBatch): Promise<Batch> {
    const seq = await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: { pk: `SESSION#${input.sessionId}`, sk: 'BATCH_SEQ' },
        UpdateExpression: 'ADD #value :one',
        ExpressionAttributeNames: { '#value': 'value' },
        ExpressionAttributeValues: { ':one': 1 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    const batchNumber = Number(seq.Attributes?.value);
    const id = batchIdOf(input.sessionId, input.vehicleType, batchNumber) ?? (await nextId(db, 'batch'));
    return {
      id,
      ...input,
      batchNumber,
      status: 'loading',
      currentCount: 0,
      startTime: new Date().toISOString(),
      endTime: null,
      version: 1,
    };
  },

  /**
   * Writes an allocated batch already holding `entries` (waiting, batch-less
   * entries of its type, as read, at most its capacity): the batch and every
   * entry's move in one transaction. Answers the batch as written, or
   * 'taken' when one of the entries is no longer as read (nothing written).
   */
  async putFilled(
    db: Db,
    batch: Batch,
    entries: readonly QueueEntry[],
    recording: Recording,
  ): Promise<Batch | 'taken'> {
    const filled: Batch = { ...batch, currentCount: entries.length };
    const events = packEntries(
      { kind: 'batch_created', batch: { id: batch.id, number: batch.batchNumber } },
      entries.map(eventEntryOf),
      TRANSACTION_ITEM_LIMIT - 1 - entries.length,
    );
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: db.table,
                Item: batchItem(filled, entries),
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            ...entries.map((entry) => entryJoins(db, filled, entry)),
            ...eventPuts(db, batch, new Date().toISOString(), events, recording),
          ],
        }),
      );
    } catch (error) {
      if (isConditionFailure(error) && entries.length > 0) return 'taken';
      throw error;
    }
    return filled;
  },

  /** `putFilled` with no entries: a new batch, empty (its Put refuses only an id already used). */
  async putEmpty(db: Db, batch: Batch, recording: Recording): Promise<Batch> {
    const made = await batches.putFilled(db, batch, [], recording);
    if (made === 'taken') throw new Error('An empty batch has no entry to be taken');
    return made;
  },

  async get(db: Db, id: number): Promise<Batch | undefined> {
    return (await batches.withMembers(db, id))?.batch;
  },

  /** A batch and the ids of the entries in it, read consistently. */
  async withMembers(db: Db, id: number): Promise<BatchWithMembers | undefined> {
    const { Item } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: key(id), ConsistentRead: true }),
    );
    return withMembersOf(Item);
  },

  /** `withMembers` as a keyed read (`keyed-read.ts`), in a BatchGetItem shared with others (the caller's sign-in read). */
  keyedWithMembers(id: number): KeyedRead<BatchWithMembers | undefined> {
    return { keys: [key(id)], consistent: true, from: (found) => withMembersOf(itemAt(found, key(id))) };
  },

  /**
   * The entries in a batch, read by key: its members as queued (loading) or
   * as completed pickups (completed), in arrival order.
   */
  async entries(db: Db, batch: Batch, memberIds: readonly string[]): Promise<QueueEntry[]> {
    return queue.byIds(db, memberIds, batch.status === 'loading' ? 'active' : 'completed');
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
   * Puts a waiting, batch-less entry into a loading batch with room: the
   * entry leaves the waiting line, the batch's count and members grow, in one
   * transaction, held to the batch's version as read, so the batch after it
   * is the one read with one more (issue 54: no read after). Answers the
   * batch as it is now; 'full', 'closed' or 'taken' when a condition failed
   * (the batch is full, not loading, or the entry is no longer as read).
   * When another change moved the batch on meanwhile, it is tried once more
   * held to the batch's room only, and the batch read after it.
   */
  async addEntry(
    db: Db,
    batch: Batch,
    entry: QueueEntry,
    recording: Recording,
  ): Promise<Batch | 'full' | 'closed' | 'taken'> {
    const outcome = await joinOnce(db, batch, entry, recording, true);
    if (outcome !== 'moved') return outcome;
    // Moved on meanwhile: once more, held to its room only (so tablets adding at once do not take turns), read after.
    // An answer kept in the key's claim was the batch as held: this try's is read after it, and kept then.
    forgetAnswerInTheClaim();
    const again = await joinOnce(db, batch, entry, recording, false);
    if (again === 'taken') return again;
    const now = await batches.get(db, batch.id);
    if (again !== 'moved') return now ?? again;
    return now?.status === 'loading' ? 'full' : 'closed';
  },

  /**
   * Takes an entry out of its loading batch (back to waiting, where it joins
   * the waiting line again in its arrival place, or to overflow), lowering
   * the count, in one transaction. A refusal says what happened to the visit.
   */
  async removeEntry(
    db: Db,
    batchId: number,
    entry: QueueEntry,
    status: 'waiting' | 'overflow',
    recording: Recording,
  ): Promise<QueueEntry> {
    const held = heldTo(entry);
    const waits = status === 'waiting';
    const event = {
      kind: waits ? ('unbatched' as const) : ('moved_to_overflow' as const),
      batch: { id: batchId, number: entry.batchNumber ?? 0 },
      status: { from: entry.status, to: status },
      entries: [eventEntryOf(entry)],
    };
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            batchLosesEntry(db, batchId, entry),
            {
              Update: {
                TableName: db.table,
                Key: activeEntryKey(entry),
                UpdateExpression: `SET batchId = :null, batchNumber = :null, #status = :status${
                  waits ? ', gsi1pk = :waitPk, gsi1sk = :waitSk' : ''
                } ADD version :one`,
                ConditionExpression: `${held.condition} AND batchId = :batchId`,
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: {
                  ...held.values,
                  ':null': null,
                  ':status': status,
                  ':batchId': batchId,
                  ':one': 1,
                  ...(waits
                    ? { ':waitPk': waitingIndex(entry).gsi1pk, ':waitSk': waitingIndex(entry).gsi1sk }
                    : {}),
                },
              },
            },
            ...eventPuts(db, entry, new Date().toISOString(), [event], recording),
          ],
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw await conflictFor(db, entry);
      throw error;
    }
    return { ...entry, status, batchId: null, batchNumber: null, version: entry.version + 1 };
  },

  /**
   * Removes a batched entry (its visit kept as removed) or completes it on its
   * own, lowering the batch count in the same transaction. Answers the entry
   * as it left; a refusal says what happened to the visit. A completion's
   * `pickups` (at most `PICKUPS_IN_COMPLETION`): its children's picked-up
   * marks, in the same transaction (h54zd: no call of their own after it).
   */
  async dropEntry(
    db: Db,
    batchId: number,
    entry: QueueEntry,
    recording: Recording,
    outcome:
      | {
          completeAt: string;
          marks?: ReadonlyMap<number, ReleaseMark>;
          pickups?: readonly Record<string, unknown>[];
        }
      | { reason: 'left' | 'removed' },
  ): Promise<QueueEntry> {
    const pickups = 'pickups' in outcome ? (outcome.pickups ?? []) : [];
    if (pickups.length > PICKUPS_IN_COMPLETION) throw new Error('Too many pickup marks for one transaction');
    const held = heldTo(entry);
    const completeAt = 'completeAt' in outcome ? outcome.completeAt : undefined;
    const leftAt = completeAt ?? new Date().toISOString();
    const completed = completeAt ? completedVisit(entry, completeAt) : undefined;
    const kind = 'reason' in outcome ? outcome.reason : ('picked_up' as const);
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            batchLosesEntry(db, batchId, entry),
            {
              Delete: {
                TableName: db.table,
                Key: activeEntryKey(entry),
                ConditionExpression: `${held.condition} AND batchId = :batchId`,
                ExpressionAttributeValues: { ...held.values, ':batchId': batchId },
              },
            },
            { Put: { TableName: db.table, Item: completed?.item ?? removedVisit(entry, leftAt) } },
            visitEnded(db.table, entry),
            ...pickups.map((pickup) => ({ Put: { TableName: db.table, Item: pickup } })),
            ...eventPuts(
              db,
              entry,
              leftAt,
              [
                {
                  kind,
                  batch: { id: batchId, number: entry.batchNumber ?? 0 },
                  entries: [
                    'completeAt' in outcome ? completedEntryOf(entry, outcome.marks) : eventEntryOf(entry),
                  ],
                },
              ],
              recording,
            ),
          ],
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw await conflictFor(db, entry);
      throw error;
    }
    return completed?.completed ?? { ...entry, version: entry.version + 1 };
  },

  /**
   * Completes a loading batch, as read (count and version), and every entry
   * in it (they become Recent Pickups, under their ids), in one transaction,
   * with each car's visit marker when they fit (`markersFit`; a bigger
   * batch's caller writes them after it: `queue.visitsEnded`). ConflictError when it is no longer loading; false when it or an entry
   * changed meanwhile (read again and retry). `marks`: the session's release
   * marks of their children, recorded per child with the completion.
   * `pickups`: their children's picked-up marks (`releases.pickUpItems`), in
   * the same transaction (issue 54: no call of their own), when they fit
   * (`pickupsFitBatch`).
   */
  async complete(
    db: Db,
    batch: Batch,
    entries: readonly QueueEntry[],
    endTime: string,
    recording: Recording,
    marks?: ReadonlyMap<number, ReleaseMark>,
    pickups: readonly Record<string, unknown>[] = [],
  ): Promise<boolean> {
    if (!pickupsFitBatch(entries.length, pickups.length)) {
      throw new Error('Too many pickup marks for one transaction');
    }
    const events = packEntries(
      { kind: 'picked_up', batch: { id: batch.id, number: batch.batchNumber } },
      entries.map((entry) => completedEntryOf(entry, marks)),
      TRANSACTION_ITEM_LIMIT - 1 - itemsPerCar(entries.length) * entries.length - pickups.length,
    );
    const markers = markersFitBatch(entries.length)
      ? entries.map((entry) => visitEnded(db.table, entry))
      : [];
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: db.table,
                Key: key(batch.id),
                UpdateExpression: 'SET #status = :completed, endTime = :endTime ADD version :one',
                ConditionExpression: '#status = :loading AND currentCount = :count AND version = :version',
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: {
                  ':completed': 'completed',
                  ':loading': 'loading',
                  ':endTime': endTime,
                  ':count': entries.length,
                  ':version': batch.version,
                  ':one': 1,
                },
              },
            },
            ...entries.flatMap((entry) => {
              const held = heldTo(entry);
              return [
                {
                  Delete: {
                    TableName: db.table,
                    Key: activeEntryKey(entry),
                    ConditionExpression: `${held.condition} AND batchId = :batchId`,
                    ExpressionAttributeValues: { ...held.values, ':batchId': batch.id },
                  },
                },
                { Put: { TableName: db.table, Item: completedVisit(entry, endTime).item } },
              ];
            }),
            ...markers,
            ...pickups.map((pickup) => ({ Put: { TableName: db.table, Item: pickup } })),
            ...eventPuts(db, batch, endTime, events, recording),
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
