import {
  type Batch,
  ConflictError,
  changedMeanwhileError,
  DEFAULT_BATCH_CAPACITY,
  isSessionRunning,
  NotFoundError,
  type PickupSession,
  type QueueEntry,
  type Recording,
  type ReleaseMark,
  type School,
  type User,
  type VehicleType,
} from '@curbside/domain';
import {
  batches,
  completedVisit,
  keyedReads,
  lineOfBatchId,
  pickupSessions,
  queue,
  refusedByTheChange,
  releases,
  schools,
} from '@curbside/store';
import { knownSchoolOf, type SignInRead } from '../lib/auth';
import { db } from '../lib/context';
import { earlyOr } from '../lib/early-read';
import { answerInTheChange } from '../lib/idempotency';
import { log } from '../lib/log';
import { remember } from '../lib/remember';
import { completeWithPickups, releasesBeforeCompletion } from './completion';
import { parentsOfStatusChange, pickedUp, publishToSession } from './live-events';
import { noteSchool, recordingBy } from './record';
import { assertSessionOfSchool, ofSchool as sessionAsRead, sessionOfSchool } from './scope';
import { recordPickups } from './teacher';

/** Transactions add-to-batch tries before giving up when other tablets keep taking its candidates. */
const MAX_ATTEMPTS = 25;
/** Entries of the waiting line read at a time: the first is usually the one taken. */
const CANDIDATES_PER_READ = 4;
const PLURAL: Readonly<Record<VehicleType, string>> = { car: 'cars', bus: 'buses' };

/** A change to an entry and the batch it moved in or out of (as it is now, being read). */
export interface EntryChange {
  entry: QueueEntry;
  batch: Promise<Batch | null>;
}

/** A batch of the user's school; another school's answers 404. */
export const batchOfSchool = async (user: User, id: number): Promise<Batch> =>
  ofSchool(user, await batches.get(db, id));

/** As `batchOfSchool`, for the batch as already read (`undefined`: no batch has that id). */
const ofSchool = (user: User, batch: Batch | undefined): Batch => {
  if (!batch || batch.schoolId !== user.schoolId) throw new NotFoundError('Batch not found');
  return batch;
};

const assertLoading = (batch: Batch) => {
  if (batch.status !== 'loading') {
    throw new ConflictError(`Batch #${batch.batchNumber} is completed and cannot be changed`);
  }
};

/** Why a batch took no entry: it is full, or no longer loading. */
const refusal = (batch: Batch, outcome: 'full' | 'closed') =>
  new ConflictError(
    outcome === 'full'
      ? `Batch #${batch.batchNumber} is full`
      : `Batch #${batch.batchNumber} is completed and cannot be changed`,
  );

const capacityOf = async (schoolId: number, type: VehicleType, read?: School) => {
  const school = read ?? (await schools.get(db, schoolId));
  return school?.batchCapacity?.[type] ?? DEFAULT_BATCH_CAPACITY[type];
};

/** A new batch's first reads (its session, its school's capacities), and for which school they were read. */
export interface NewBatchReads {
  schoolId: number;
  reads: [PickupSession | undefined, School | undefined];
}

/**
 * A new batch's first reads, its session and its school (the batch capacity),
 * in the caller's sign-in read (one BatchGetItem) for a staff member this
 * instance signed in at a school; none otherwise.
 */
export const earlyNewBatch = (
  userId: number,
  { body }: { body: { sessionId: number } },
  signIn: SignInRead,
): Promise<NewBatchReads> | undefined => {
  const schoolId = knownSchoolOf(userId);
  if (schoolId === undefined) return undefined;
  return signIn(keyedReads.all(pickupSessions.keyed(body.sessionId), schools.keyed(schoolId))).then(
    (reads) => ({ schoolId, reads }),
  );
};

/**
 * The batch as it is after a change (its count and version), read consistently
 * while the caller goes on: the change has committed, so a failed read only
 * leaves the batch out of the live event (logged).
 */
const batchSoon = (id: number): Promise<Batch | null> =>
  batches.get(db, id).then(
    (batch) => batch ?? null,
    (error: Error) => {
      log('warn', 'batch not read after a change', { batchId: id, error: error.message });
      return null;
    },
  );

const announce = (
  batch: Pick<Batch, 'schoolId' | 'sessionId'>,
  change:
    | { entry: QueueEntry | null; batch: Batch | null }
    | Promise<{ entry: QueueEntry | null; batch: Batch | null }>,
  /** The change's entry when it is known before the change's promise settles (null: none). */
  entry: QueueEntry | null | undefined = change instanceof Promise ? undefined : change.entry,
) =>
  publishToSession(
    batch.schoolId,
    batch.sessionId,
    Promise.resolve(change).then((data) => ({ type: 'QUEUE_STATUS_UPDATED' as const, data })),
    undefined,
    undefined,
    // The entry is known now: the fan-out reads only its children's parents' pages (h54zf).
    entry === undefined ? undefined : parentsOfStatusChange(entry),
  );

/** Tries to fill a new batch in one transaction before it is written empty and topped up one by one. */
const FILL_ATTEMPTS = 3;

/**
 * Creates a batch that starts loading at once; numbers count up per session
 * from 1. With `fill`, the new batch takes the next waiting, batch-less
 * vehicles of its type up to its capacity in the same transaction (one tap
 * on New Car Batch loads a whole batch); when other tablets keep taking those
 * vehicles first, it is written with what the last read found free.
 */
export const createBatch = async (
  user: User,
  sessionId: number,
  vehicleType: VehicleType,
  fill = false,
  early?: Promise<NewBatchReads>,
): Promise<Batch> => {
  // The session and the school as read with the sign-in (`earlyNewBatch`) when read for this user's school.
  const started = await early?.catch(() => undefined);
  const read = started && started.schoolId === user.schoolId ? started.reads : undefined;
  const session = read ? sessionAsRead(user, sessionId, read[0]) : await sessionOfSchool(user, sessionId);
  if (!isSessionRunning(session))
    throw new ConflictError('This session has ended. Start a new session first.');
  // The school read with the sign-in holds the record's retention too: no read of its own.
  if (read?.[1]?.id === session.schoolId) noteSchool(read[1]);
  const record = await recordingBy(user, session.schoolId);
  const allocated = await batches.allocate(db, {
    sessionId,
    schoolId: session.schoolId,
    vehicleType,
    maxCapacity: await capacityOf(session.schoolId, vehicleType, read?.[1]),
  });
  let written: Batch | 'taken' = 'taken';
  let riders: QueueEntry[] = [];
  for (let attempt = 1; written === 'taken'; attempt++) {
    riders =
      fill && attempt <= FILL_ATTEMPTS
        ? (await queue.waitingForBatch(db, sessionId, vehicleType, allocated.maxCapacity)).entries
        : [];
    // The new batch is the answer, kept in the key's claim by its transaction (h54ze).
    answerInTheChange(201, { ...allocated, currentCount: riders.length });
    if (riders.length === 0) return putEmpty(allocated, record);
    written = await batches.putFilled(db, allocated, riders, record);
  }
  const batch = written;
  await announce(batch, { entry: null, batch });
  await Promise.all(
    riders.map((rider) =>
      announce(batch, {
        entry: { ...rider, batchId: batch.id, batchNumber: batch.batchNumber, version: rider.version + 1 },
        batch,
      }),
    ),
  );
  return batch;
};

/**
 * A new batch written empty: its Put refuses nothing but a retry's key, so its
 * event's number and the school's connections are read beside its transaction
 * (ADR 0027, h54ze); should it not commit, nothing is told.
 */
const putEmpty = async (allocated: Batch, record: Recording): Promise<Batch> => {
  const put = batches.putEmpty(db, allocated, record);
  const told = announce(
    allocated,
    put.then((batch) => ({ entry: null, batch })),
    null,
  );
  const batch = await put;
  await told;
  return batch;
};

export const listBatches = async (user: User, sessionId: number, status: 'loading' | 'completed') => {
  await assertSessionOfSchool(user, sessionId);
  const all = await batches.listBySession(db, sessionId);
  return all.filter((batch) => batch.status === status);
};

/** The entries in a batch, read by key from its members (loading: queued; completed: its pickups). */
export const batchVehicles = async (user: User, id: number): Promise<QueueEntry[]> => {
  const found = await batches.withMembers(db, id);
  if (!found || found.batch.schoolId !== user.schoolId) throw new NotFoundError('Batch not found');
  return batches.entries(db, found.batch, found.memberIds);
};

/** Which line each batch this instance saw loads from: a batch's session and vehicle type never change. */
const lineOfBatch = new Map<number, { sessionId: number; vehicleType: VehicleType }>();
const LINES_KEPT = 5_000;

/**
 * What add-to-batch reads first: the batch and, beside it, its waiting line
 * (issue 33) where the batch's id names it (`lineOfBatchId`) or this instance
 * saw the batch before, used once the batch is the user's and loads from it.
 */
export const batchReads = (batchId: number, signIn?: SignInRead) => {
  const seen = lineOfBatchId(batchId) ?? lineOfBatch.get(batchId);
  const line = seen && {
    ...seen,
    read: queue.waitingForBatch(db, seen.sessionId, seen.vehicleType, CANDIDATES_PER_READ),
  };
  line?.read.catch(() => undefined);
  // In the sign-in's own read when started with it (`addNextToBatch` reads it again should that fail).
  const batch = signIn
    ? signIn(batches.keyedWithMembers(batchId)).then((found) => found?.batch)
    : batches.get(db, batchId);
  return { batchId, batch, line };
};

export type BatchReads = ReturnType<typeof batchReads>;

/** The live event of an entry put into a batch: the entry as it is now, and the batch. */
const announceJoined = (batch: Batch, entry: QueueEntry) =>
  announce(batch, {
    entry: { ...entry, batchId: batch.id, batchNumber: batch.batchNumber, version: entry.version + 1 },
    batch,
  });

/**
 * Add-to-batch: takes the first waiting, batch-less vehicle of the batch's
 * type from the waiting line (a few entries at a time) and raises the count,
 * in one transaction. When another tablet takes that vehicle first, it tries
 * the next one; when its read held the whole line and every vehicle in it was
 * taken, it answers 409 from that read (h54ze). The batch with one more is the
 * answer, kept in the key's claim by the transaction.
 */
export const addNextToBatch = async (user: User, id: number, early?: Promise<BatchReads>): Promise<Batch> => {
  const started = await early;
  const reads = started?.batchId === id ? started : batchReads(id);
  const batch = ofSchool(user, await reads.batch.catch(() => batches.get(db, id)));
  remember(lineOfBatch, id, { sessionId: batch.sessionId, vehicleType: batch.vehicleType }, LINES_KEPT);
  assertLoading(batch);
  const record = await recordingBy(user, batch.schoolId);
  let cursor: Record<string, unknown> | undefined;
  let taken = 0;
  // The line read beside the batch, if it is the batch's.
  let first =
    reads.line?.sessionId === batch.sessionId && reads.line.vehicleType === batch.vehicleType
      ? reads.line.read
      : undefined;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; ) {
    const { entries, next } =
      (first && (await first.catch(() => undefined))) ??
      (await queue.waitingForBatch(db, batch.sessionId, batch.vehicleType, CANDIDATES_PER_READ, cursor));
    first = undefined;
    for (const candidate of entries) {
      attempt++;
      // The answer (the batch with one more) is kept in the key's claim by the transaction (h54ze).
      answerInTheChange(200, batches.afterGain(batch));
      const joined = await batches.addEntry(db, batch, candidate, record);
      if (joined === 'full' || joined === 'closed') throw refusal(batch, joined);
      if (joined !== 'taken') {
        await announceJoined(joined, candidate);
        return joined;
      }
      taken++;
    }
    if (next) cursor = next;
    else if (taken > 0 && cursor !== undefined) {
      // Every candidate was taken: the line has moved on; read it again from its start.
      cursor = undefined;
      taken = 0;
    } else {
      // The whole line was read and nothing in it is left (another tablet took what was there): refused
      // from this read, not read again (h54ze); the screen shows the next car as it comes. When its
      // last car's transaction decided it (nothing read since) with the key free, no retry's first
      // answer is to be looked for after it (h54j).
      if (entries.length > 0) refusedByTheChange();
      throw new ConflictError(
        `No waiting ${PLURAL[batch.vehicleType]} to add to Batch #${batch.batchNumber}`,
      );
    }
  }
  throw new ConflictError('The queue is changing quickly. Please try again.');
};

/** Puts one chosen waiting entry into a batch (`PUT /api/queue/{id}` with a batch id). */
export const placeInBatch = async (user: User, entry: QueueEntry, batchId: number): Promise<QueueEntry> => {
  const batch = await batchOfSchool(user, batchId);
  assertLoading(batch);
  if (batch.sessionId !== entry.sessionId) throw new ConflictError('That batch belongs to another session');
  if (batch.vehicleType !== entry.vehicleType) {
    throw new ConflictError(`Batch #${batch.batchNumber} is for ${PLURAL[batch.vehicleType]}`);
  }
  if (entry.batchId === batchId) return entry;
  if (entry.status !== 'waiting' || entry.batchId !== null) {
    throw new ConflictError(`Vehicle ${entry.vehicleNumber} is not waiting for a batch`);
  }
  const joined = await batches.addEntry(db, batch, entry, await recordingBy(user, batch.schoolId));
  if (joined === 'full' || joined === 'closed') throw refusal(batch, joined);
  if (joined === 'taken') throw changedMeanwhileError(entry);
  await announceJoined(joined, entry);
  return { ...entry, batchId: batch.id, batchNumber: batch.batchNumber, version: entry.version + 1 };
};

/** Moves an entry out of its batch, back to waiting or to overflow. */
export const takeOutOfBatch = async (
  entry: QueueEntry,
  status: 'waiting' | 'overflow',
  record: Recording,
): Promise<EntryChange> => {
  const batchId = entry.batchId as number;
  const moved = await batches.removeEntry(db, batchId, entry, status, record);
  return { entry: moved, batch: batchSoon(batchId) };
};

/**
 * Removes (the car left, or staff removed it) or completes a batched entry on
 * its own, keeping the batch count right. A pickup's children are marked
 * picked up in the same transaction when they fit (h54zd: no BatchWriteItem
 * after it, a round trip of its own), else after it.
 */
export const dropFromBatch = async (
  entry: QueueEntry,
  record: Recording,
  outcome: 'picked_up' | 'left' | 'removed',
  marks?: ReadonlyMap<number, ReleaseMark>,
): Promise<EntryChange> => {
  const batchId = entry.batchId as number;
  if (outcome !== 'picked_up') {
    const left = await batches.dropEntry(db, batchId, entry, record, { reason: outcome });
    return { entry: left, batch: batchSoon(batchId) };
  }
  const completed = await completeWithPickups(entry, record, marks, (completeAt, pickups) =>
    batches.dropEntry(db, batchId, entry, record, { completeAt, ...(marks ? { marks } : {}), pickups }),
  );
  return { entry: completed, batch: batchSoon(batchId) };
};

/**
 * `PUT /api/batches/{id}`: completing completes every entry in it (marking
 * their students picked up) and ends it; loading is its state from creation;
 * a count the client sends is answered with the count the entries give (the
 * server keeps it right). A child in it no teacher released: 409 naming them,
 * unless `confirmUnreleased` (then recorded as completed without a release).
 */
type BatchWithMembers = Awaited<ReturnType<typeof batches.withMembers>>;

/**
 * A batch's change's first read, the batch with its members, started beside
 * the caller's sign-in (a route's `EarlyReads`, ADR 0027) for a staff member
 * this instance signed in at a school; none otherwise.
 */
export const earlyBatch = (userId: number, { params }: { params: { id: number } }, signIn: SignInRead) =>
  knownSchoolOf(userId) === undefined ? undefined : signIn(batches.keyedWithMembers(params.id));

/**
 * A loading batch's entries and its children's release marks (where the batch
 * keeps its riders), in one BatchGetItem (issue 54: the marks no longer wait
 * for the entries).
 */
const entriesAndReleases = async (found: NonNullable<BatchWithMembers>) => {
  const [entries, marks] = await keyedReads.run(
    db,
    keyedReads.all(
      queue.keyedByIds(found.memberIds, 'active'),
      releases.keyedReleaseMarks(found.batch.sessionId, found.riders),
    ),
  );
  return { entries, known: { read: new Set(found.riders.map((rider) => rider.id)), marks } };
};

/**
 * The visits' markers of a batch too big for them in its completion's
 * transaction (ADR 0027, h54zb), right after it. A failure is logged, not
 * answered: the batch is completed; those cars' next visits would be recorded
 * as queued, not requeued.
 */
const markVisitsEnded = async (batch: Batch, entries: readonly QueueEntry[]) => {
  try {
    await queue.visitsEnded(db, entries);
  } catch (error) {
    log('error', 'visit markers not written', {
      sessionId: batch.sessionId,
      batchId: batch.id,
      error: (error as Error).message,
    });
  }
};

export const updateBatch = async (
  user: User,
  id: number,
  change: {
    status?: 'loading' | 'completed';
    currentCount?: number;
    confirmUnreleased?: boolean | undefined;
  },
  early?: Promise<BatchWithMembers>,
): Promise<Batch> => {
  // The batch with its members, read once (beside the sign-in when started early, or again should that fail).
  const first = await earlyOr(early, () => batches.withMembers(db, id));
  const batch = ofSchool(user, first?.batch);
  assertLoading(batch);
  if (change.status !== 'completed') return batch;
  const record = await recordingBy(user, batch.schoolId);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const found = attempt === 0 ? first : await batches.withMembers(db, id);
    if (!found) throw new NotFoundError('Batch not found');
    assertLoading(found.batch);
    const { entries, known } = await entriesAndReleases(found);
    const marks = await releasesBeforeCompletion(
      batch.sessionId,
      entries,
      change.confirmUnreleased === true,
      known,
    );
    const endTime = new Date().toISOString();
    // The children's picked-up marks in the completion's transaction when they fit, else after it.
    const pickups = releases.pickUpItems(batch, entries, record, endTime, marks);
    const fits = batches.pickupsFit(entries.length, pickups.length);
    if (await batches.complete(db, found.batch, entries, endTime, record, marks, fits ? pickups : [])) {
      const completed: Batch = {
        ...found.batch,
        status: 'completed',
        endTime,
        currentCount: entries.length,
        version: found.batch.version + 1,
      };
      if (!fits) await recordPickups(batch, entries, endTime, record, marks);
      if (!batches.markersFit(entries.length)) await markVisitsEnded(batch, entries);
      const done = entries.map((entry) => completedVisit(entry, endTime).completed);
      await publishToSession(
        batch.schoolId,
        batch.sessionId,
        { type: 'VEHICLES_REMOVED_FROM_QUEUE', data: { batch: completed, entries: done } },
        undefined,
        pickedUp(done),
      );
      return completed;
    }
  }
  throw new ConflictError('The batch is changing quickly. Please try again.');
};
