import { randomInt } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import {
  type ConflictError,
  changedMeanwhileError,
  completedEventEntry,
  eventEntryOf,
  type QueueEntry,
  type ReleaseMark,
  type VehicleType,
  visitEndedError,
} from '@curbside/domain';
import type { Db } from './db';
import { stripKeys } from './ids';
import { itemAt, type KeyedRead, keyedReads } from './keyed-read';

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
 * - the car's ended visits: sk `VISITED#{type}#{NUMBER}`, a small item that
 *   says a visit of the car ended in the session (ADR 0027, h54zb): every
 *   way a visit ends puts it in its own transaction (`visitEnded`), so
 *   queueing the car reads by key, beside the sign-in, whether this is its
 *   first visit (the record's `vehicle_queued` or `vehicle_requeued`). An
 *   Undo leaves it: the visit is back in the slot, so the car is queued again
 *   only once that visit (or a later one) ended again, which puts it again.
 *   A session that does not say `visitsMarked` began before the markers were
 *   written: its earlier visits are found by Query (`queue.visitedBefore`).
 * Every write to an entry is held to the id and version the caller read, so
 * a write aimed at an earlier visit never lands on a later one.
 */
export const partition = (sessionId: number) => `QUEUE#${sessionId}`;
export const activeSk = (type: VehicleType, number: string) => `ENTRY#${type}#${number.toUpperCase()}`;
export const visitSk = (id: string) => `VISIT#${id}`;
export const waitingPartition = (sessionId: number, type: VehicleType) =>
  `QUEUE#${sessionId}#WAITING#${type}`;
export const donePartition = (sessionId: number) => `QUEUE#${sessionId}#DONE`;
export const visitedKey = (sessionId: number, type: VehicleType, number: string) => ({
  pk: partition(sessionId),
  sk: `VISITED#${type}#${number.toUpperCase()}`,
});

type Vehicle = Pick<QueueEntry, 'id' | 'sessionId' | 'vehicleType' | 'vehicleNumber'>;

/**
 * The item of a transaction that notes a visit's end on its car's marker
 * (`VISITED#`): a Put (2 write units, its size known to the meter), the last
 * visit that ended named in it.
 */
export const visitEnded = (table: string, entry: Vehicle) => ({
  Put: {
    TableName: table,
    Item: {
      ...visitedKey(entry.sessionId, entry.vehicleType, entry.vehicleNumber),
      entity: 'visitedMarker',
      lastEnded: entry.id,
    },
  },
});

/** Whether a car's marker (as read) says a visit of it ended in the session. */
export const endedVisits = (marker: Record<string, unknown> | undefined): boolean =>
  marker?.entity === 'visitedMarker';
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

export const waitsForBatch = (entry: Pick<QueueEntry, 'status' | 'batchId'>) =>
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
export const notCalledOf = (entry: QueueEntry) =>
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

export const fromItem = (item: Record<string, unknown>): QueueEntry => ({
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

/** A visit as its slot and its record stand: active when the slot holds it, else how it ended (or none). */
const visitOf = (
  id: string,
  slot: Record<string, unknown> | undefined,
  ended: Record<string, unknown> | undefined,
): Visit | undefined => {
  if (slot?.id === id) return { state: 'active', entry: fromItem(slot) };
  if (!ended) return undefined;
  return ended.entity === 'removedVisit'
    ? { state: 'removed', entry: stripKeys<RemovedVisit>({ ...ended, entry: undefined }) }
    : { state: 'pickedUp', entry: fromItem(ended) };
};

/** How a visit stands now, read consistently: its slot, then (when the slot holds another visit) its record. */
export const lookup = async (db: Db, id: string): Promise<Visit | undefined> => {
  const parsed = parseEntryId(id);
  if (!parsed) return undefined;
  const { Item: slot } = await db.doc.send(
    new GetCommand({ TableName: db.table, Key: parsed.slot, ConsistentRead: true }),
  );
  if (slot?.id === id) return visitOf(id, slot, undefined);
  const { Item: ended } = await db.doc.send(
    new GetCommand({ TableName: db.table, Key: parsed.visit, ConsistentRead: true }),
  );
  return visitOf(id, slot, ended);
};

/**
 * `lookup` as a keyed read (`keyed-read.ts`, issue 54: in the caller's
 * sign-in read): the visit's slot and its record at once, consistently.
 */
export const keyedLookup = (id: string): KeyedRead<Visit | undefined> => {
  const parsed = parseEntryId(id);
  if (!parsed) return keyedReads.none(undefined);
  return {
    keys: [parsed.slot, parsed.visit],
    consistent: true,
    from: (found) => visitOf(id, itemAt(found, parsed.slot), itemAt(found, parsed.visit)),
  };
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
