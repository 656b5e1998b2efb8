import {
  type Batch,
  ConflictError,
  changedMeanwhileError,
  DEFAULT_BATCH_CAPACITY,
  isSessionRunning,
  NotFoundError,
  nextForBatch,
  type QueueEntry,
  type User,
  type VehicleType,
} from '@curbside/domain';
import { batches, completedEntry, queue, schools } from '@curbside/store';
import { db } from '../lib/context';
import { publishToStaff } from './live-events';
import { sessionOfSchool } from './scope';
import { recordPickups } from './teacher';

const MAX_ATTEMPTS = 25;
const PLURAL: Readonly<Record<VehicleType, string>> = { car: 'cars', bus: 'buses' };

/** A batch of the user's school; another school's answers 404. */
export const batchOfSchool = async (user: User, id: number): Promise<Batch> => {
  const batch = await batches.get(db, id);
  if (!batch || batch.schoolId !== user.schoolId) throw new NotFoundError('Batch not found');
  return batch;
};

const assertLoading = (batch: Batch) => {
  if (batch.status !== 'loading') {
    throw new ConflictError(`Batch #${batch.batchNumber} is completed and cannot be changed`);
  }
};

const capacityOf = async (schoolId: number, type: VehicleType) => {
  const school = await schools.get(db, schoolId);
  return school?.batchCapacity?.[type] ?? DEFAULT_BATCH_CAPACITY[type];
};

const announce = (batch: Batch, data: Record<string, unknown> = {}) =>
  publishToStaff(batch.schoolId, {
    type: 'QUEUE_STATUS_UPDATED',
    data: { sessionId: batch.sessionId, batchId: batch.id, ...data },
  });

/** Creates a batch that starts loading at once; numbers count up per session from 1. */
export const createBatch = async (
  user: User,
  sessionId: number,
  vehicleType: VehicleType,
): Promise<Batch> => {
  const session = await sessionOfSchool(user, sessionId);
  if (!isSessionRunning(session))
    throw new ConflictError('This session has ended. Start a new session first.');
  const batch = await batches.create(db, {
    sessionId,
    schoolId: session.schoolId,
    vehicleType,
    maxCapacity: await capacityOf(session.schoolId, vehicleType),
  });
  await announce(batch);
  return batch;
};

export const listBatches = async (user: User, sessionId: number, status: 'loading' | 'completed') => {
  await sessionOfSchool(user, sessionId);
  const all = await batches.listBySession(db, sessionId);
  return all.filter((batch) => batch.status === status);
};

/** The entries in a batch (loading: active entries; completed: its completed pickups). */
export const batchVehicles = async (user: User, id: number): Promise<QueueEntry[]> => {
  const batch = await batchOfSchool(user, id);
  const entries =
    batch.status === 'loading' || batch.endTime === null
      ? await queue.listActive(db, batch.sessionId)
      : await queue.listCompletedAt(db, batch.sessionId, batch.endTime);
  return entries.filter((entry) => entry.batchId === batch.id);
};

/**
 * Add-to-batch: takes the first waiting, batch-less vehicle of the batch's
 * type and raises the count, in one transaction. When another tablet takes
 * that vehicle first, it tries the next one.
 */
export const addNextToBatch = async (user: User, id: number): Promise<Batch> => {
  const batch = await batchOfSchool(user, id);
  assertLoading(batch);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const candidate = nextForBatch(await queue.listActive(db, batch.sessionId), batch.vehicleType);
    if (!candidate)
      throw new ConflictError(
        `No waiting ${PLURAL[batch.vehicleType]} to add to Batch #${batch.batchNumber}`,
      );
    const outcome = await batches.addEntry(db, batch, candidate);
    if (outcome === 'full') throw new ConflictError(`Batch #${batch.batchNumber} is full`);
    if (outcome === 'closed')
      throw new ConflictError(`Batch #${batch.batchNumber} is completed and cannot be changed`);
    if (outcome === 'added') {
      const updated = (await batches.get(db, id)) as Batch;
      await announce(updated, { id: candidate.id, status: 'waiting' });
      return updated;
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
  const outcome = await batches.addEntry(db, batch, entry);
  if (outcome === 'full') throw new ConflictError(`Batch #${batch.batchNumber} is full`);
  if (outcome === 'closed')
    throw new ConflictError(`Batch #${batch.batchNumber} is completed and cannot be changed`);
  if (outcome === 'taken') {
    throw changedMeanwhileError(entry);
  }
  await announce(batch, { id: entry.id, status: 'waiting' });
  return { ...entry, batchId: batch.id, batchNumber: batch.batchNumber };
};

/** Moves an entry out of its batch, back to waiting or to overflow. */
export const takeOutOfBatch = async (
  entry: QueueEntry,
  status: 'waiting' | 'overflow',
): Promise<QueueEntry> => {
  const batchId = entry.batchId as number;
  const batch = await batches.get(db, batchId);
  if (batch) assertLoading(batch);
  if (!(await batches.removeEntry(db, batchId, entry, status))) {
    throw changedMeanwhileError(entry);
  }
  if (batch) await announce(batch, { id: entry.id, status });
  return { ...entry, status, batchId: null, batchNumber: null };
};

/** Removes or completes a batched entry on its own, keeping the batch count right. */
export const dropFromBatch = async (entry: QueueEntry, complete: boolean): Promise<QueueEntry> => {
  const batchId = entry.batchId as number;
  const batch = await batches.get(db, batchId);
  if (batch) assertLoading(batch);
  const exitTime = new Date().toISOString();
  if (!(await batches.dropEntry(db, batchId, entry, complete ? exitTime : undefined))) {
    throw changedMeanwhileError(entry);
  }
  return complete ? completedEntry(entry, exitTime).completed : entry;
};

/**
 * `PUT /api/batches/{id}`: completing completes every entry in it (marking
 * their students picked up) and ends it; loading is its state from creation;
 * a count the client sends is answered with the count the entries give (the
 * server keeps it right).
 */
export const updateBatch = async (
  user: User,
  id: number,
  change: { status?: 'loading' | 'completed'; currentCount?: number },
): Promise<Batch> => {
  const batch = await batchOfSchool(user, id);
  assertLoading(batch);
  if (change.status !== 'completed') return batch;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const entries = (await queue.listActive(db, batch.sessionId)).filter((entry) => entry.batchId === id);
    const endTime = new Date().toISOString();
    if (await batches.complete(db, batch, entries, endTime)) {
      const completed: Batch = { ...batch, status: 'completed', endTime, currentCount: entries.length };
      await recordPickups(batch.sessionId, entries, endTime);
      await publishToStaff(batch.schoolId, {
        type: 'VEHICLES_REMOVED_FROM_QUEUE',
        data: { sessionId: batch.sessionId, batchId: id, ids: entries.map((entry) => entry.id) },
      });
      return completed;
    }
  }
  throw new ConflictError('The batch is changing quickly. Please try again.');
};
