import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import {
  type Batch,
  ConflictError,
  eventEntryOf,
  NotFoundError,
  type QueueEntry,
  type Recording,
} from '@curbside/domain';
import { batchAfterGain, batches, batchGainsEntry } from './batch';
import type { Db } from './db';
import { eventPuts, meterTransactionSurcharge } from './dismissal-event';
import { stripKeys } from './ids';
import { itemAt, type KeyedRead, keyedReads } from './keyed-read';
import { cancellationReasons, isConditionFailure } from './query';
import { activeItem, parseEntryId } from './queue';
import { releases } from './release';

/** How long after a removal or a pickup Undo may bring the visit back. */
export const RESTORE_WINDOW_MS = 60 * 1000;

/** What Undo brought back: the entry (same id, its place by arrival) and its batch when it went back in. */
export interface Restored {
  entry: QueueEntry;
  batch: Batch | null;
  /** It was a pickup (its students' picked-up marks are to be taken back). */
  wasPickup: boolean;
  /** When the pickup taken back was made (null: Undo of a removal). */
  pickedUpAt: string | null;
  /** Its students' picked-up marks were taken back in the same transaction (else: `releases.unPickUp`). */
  marksTakenBack: boolean;
}

/** A pickup's marks go in Undo's transaction up to this many children (a transaction holds 100 items). */
const MARKS_IN_TRANSACTION = 80;

/**
 * Undo of a removal or a pickup, within `RESTORE_WINDOW_MS`: the visit's
 * ended record is deleted and its entry put back in its slot under the same
 * id and arrival time (so the same place in the line), in its batch when
 * that batch is still loading and has room (else waiting for one), with a
 * `restored` event in the record, in one transaction. 409 when the window
 * passed or the car was queued again meanwhile; 404 for no such visit.
 */
/** The slot a visit's id names and the visit's record, as a restore reads them. */
export interface RestoreRead {
  slot: Record<string, unknown> | undefined;
  ended: Record<string, unknown> | undefined;
}

/**
 * A restore's read, the slot and the ended visit, as a keyed read
 * (`keyed-read.ts`, issue 54: in the caller's sign-in read), strongly consistent.
 */
export const keyedRestoreRead = (id: string): KeyedRead<RestoreRead> => {
  const parsed = parseEntryId(id);
  if (!parsed) return keyedReads.none({ slot: undefined, ended: undefined });
  return {
    keys: [parsed.slot, parsed.visit],
    consistent: true,
    from: (found) => ({ slot: itemAt(found, parsed.slot), ended: itemAt(found, parsed.visit) }),
  };
};

/** How a restore is tried (its retries say what the one before learned). */
interface RestoreOptions {
  /** The pickup's marks are taken back after the transaction (a later pickup's mark cancelled it). */
  marksApart?: boolean;
  /**
   * The batch held to its version as read, so the batch after it is the one
   * read with one more (no read after it); off once another change moved the
   * batch meanwhile: then held to its room only, and read after.
   */
  heldToBatch?: boolean;
  /** Called with the entry as each try is about to write it (the service keeps its answer in the key's claim). */
  beforeCommit?: (entry: QueueEntry) => void;
}

export const restoreVisit = async (
  db: Db,
  id: string,
  recording: Recording,
  now = new Date(),
  read?: RestoreRead,
  options: RestoreOptions = {},
): Promise<Restored> => {
  const { marksApart = false, heldToBatch = true, beforeCommit } = options;
  const parsed = parseEntryId(id);
  if (!parsed) throw new NotFoundError('Queue entry not found');
  // The slot and the ended visit in one BatchGetItem (ADR 0027), strongly consistent: the
  // sign-in's own when read with it (`read`).
  const { slot, ended } = read ?? (await keyedReads.run(db, keyedRestoreRead(id)));
  const number = parsed.number;
  if (slot?.id === id) throw new ConflictError(`Vehicle ${number} is already in the queue`);
  if (!ended) throw new NotFoundError('Queue entry not found');
  const wasPickup = ended.entity !== 'removedVisit';
  const stored = (wasPickup ? stripKeys<QueueEntry>(ended) : ended.entry) as QueueEntry | undefined;
  const endedAt = (wasPickup ? ended.exitTime : ended.removedAt) as string | undefined;
  if (!stored || !endedAt || now.getTime() - Date.parse(endedAt) > RESTORE_WINDOW_MS) {
    throw new ConflictError(`Vehicle ${number} can no longer be put back: Undo is possible for 60 seconds`);
  }
  if (slot) throw new ConflictError(`Vehicle ${number} was queued again and cannot be put back`);
  const batch = stored.batchId !== null ? await batches.get(db, stored.batchId) : undefined;
  const intoBatch =
    batch && batch.status === 'loading' && batch.currentCount < batch.maxCapacity ? batch : null;
  const entry: QueueEntry = {
    ...stored,
    status: 'waiting',
    batchId: intoBatch?.id ?? null,
    batchNumber: intoBatch?.batchNumber ?? null,
    exitTime: null,
    position: null,
    version: stored.version + 1,
  };
  const item = activeItem(entry);
  meterTransactionSurcharge(item);
  const at = now.toISOString();
  // A pickup's marks are taken back in the same transaction (no call a child after it).
  const marks =
    wasPickup && !marksApart && entry.students.length <= MARKS_IN_TRANSACTION
      ? releases.unPickUpDeletes(db, entry.sessionId, entry)
      : [];
  beforeCommit?.(entry);
  try {
    await db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: { TableName: db.table, Item: item, ConditionExpression: 'attribute_not_exists(pk)' },
          },
          {
            Delete: {
              TableName: db.table,
              Key: parsed.visit,
              ConditionExpression: 'id = :id',
              ExpressionAttributeValues: { ':id': id },
            },
          },
          // Its children back among the batch's riders too (a bus of 30 as a car of one: its completion reads their marks by them).
          ...(intoBatch ? [batchGainsEntry(db, intoBatch, entry, heldToBatch)] : []),
          ...eventPuts(
            db,
            entry,
            at,
            [
              {
                kind: 'restored',
                entries: [eventEntryOf(entry)],
                ...(intoBatch ? { batch: { id: intoBatch.id, number: intoBatch.batchNumber } } : {}),
              },
            ],
            recording,
          ),
          ...marks,
        ],
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const reasons = cancellationReasons(error);
    const [slotReason, visitReason] = reasons;
    if (slotReason === 'ConditionalCheckFailed') {
      throw new ConflictError(`Vehicle ${number} was queued again and cannot be put back`);
    }
    if (visitReason === 'ConditionalCheckFailed')
      throw new ConflictError(`Vehicle ${number} was already put back`);
    // A child's mark is a later pickup's now: the marks are taken back after, each only if still this visit's.
    if (marks.length > 0 && reasons.slice(-marks.length).includes('ConditionalCheckFailed'))
      return restoreVisit(db, id, recording, now, read, { ...options, marksApart: true });
    // The batch moved on, filled up or closed meanwhile: read again, held to its room only
    // (back to waiting for a batch when it has none).
    if (intoBatch) return restoreVisit(db, id, recording, now, undefined, { ...options, heldToBatch: false });
    throw error;
  }
  const after = intoBatch
    ? heldToBatch
      ? batchAfterGain(intoBatch)
      : await batches.get(db, intoBatch.id)
    : undefined;
  return {
    entry,
    batch: after ?? null,
    wasPickup,
    pickedUpAt: wasPickup ? endedAt : null,
    marksTakenBack: marks.length > 0,
  };
};
