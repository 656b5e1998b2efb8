import {
  type AddVehicleInput,
  addVehicleSchema,
  ConflictError,
  canTransition,
  type QueueEntry,
  type QueueStatus,
  type User,
  type Vehicle,
} from '@curbside/domain';
import { queue, students, vehicles } from '@curbside/store';
import { db } from '../lib/context';
import { dropFromBatch, placeInBatch, takeOutOfBatch } from './batches';
import { publishToStaff } from './live-events';
import { entryOfSchool, runningSession, sessionOfSchool } from './scope';
import { recordPickups } from './teacher';
import { ownSchoolId } from './tenancy';

export const listQueue = async (user: User, sessionId: number, status?: 'completed') => {
  await sessionOfSchool(user, sessionId);
  return status === 'completed' ? queue.listCompleted(db, sessionId) : queue.listActive(db, sessionId);
};

const snapshot = ({ studentIds: _, schoolId: __, ...vehicle }: Vehicle) => vehicle;

/** Queues a vehicle by number; an unregistered number is queued without details. */
export const addVehicle = async (user: User, input: AddVehicleInput): Promise<QueueEntry> => {
  const { sessionId, vehicleNumber, vehicleType } = addVehicleSchema.parse(input);
  const schoolId = ownSchoolId(user);
  // Independent reads, one round trip.
  const [, vehicle] = await Promise.all([
    runningSession(user, sessionId),
    vehicles.byNumber(db, schoolId, vehicleType, vehicleNumber),
  ]);
  const riders = vehicle ? await students.getMany(db, schoolId, vehicle.studentIds) : [];
  const now = new Date().toISOString();
  const entry = await queue.add(db, {
    sessionId,
    schoolId,
    vehicleId: vehicle?.id ?? null,
    vehicleNumber,
    vehicleType,
    entryTime: now,
    queueTime: now,
    vehicle: vehicle ? snapshot(vehicle) : null,
    students: riders.map(({ id, firstName, lastName, grade, classroomId }) => ({
      id,
      firstName,
      lastName,
      grade,
      classroomId,
    })),
  });
  await publishToStaff(schoolId, {
    type: 'VEHICLE_QUEUED',
    data: {
      sessionId,
      entryId: entry.id,
      vehicle: {
        number: entry.vehicleNumber,
        type: entry.vehicleType,
        make: vehicle?.make ?? null,
        model: vehicle?.model ?? null,
        color: vehicle?.color ?? null,
        parentName: vehicle?.parentName ?? null,
        alternateContactName: vehicle?.alternateContactName ?? null,
      },
    },
  });
  return entry;
};

/** Removes an entry (picked up, left, removed, or a dismissed overflow entry). */
export const removeEntry = async (user: User, id: string): Promise<QueueEntry> => {
  const entry = await entryOfSchool(user, id);
  if (entry.status === 'completed') {
    throw new ConflictError(`Vehicle ${entry.vehicleNumber} has already been picked up`);
  }
  const removed = entry.batchId !== null ? await dropFromBatch(entry, false) : await queue.remove(db, entry);
  await publishToStaff(entry.schoolId, { type: 'VEHICLE_REMOVED', data: { id, sessionId: entry.sessionId } });
  return removed;
};

/**
 * Changes an entry's status; completing records exitTime, keeps it for Recent
 * Pickups and marks its students picked up.
 */
export const setEntryStatus = async (user: User, id: string, status: QueueStatus): Promise<QueueEntry> => {
  const entry = await entryOfSchool(user, id);
  if (!canTransition(entry.status, status)) {
    throw new ConflictError(`Vehicle ${entry.vehicleNumber} cannot go from ${entry.status} to ${status}`);
  }
  const updated =
    entry.batchId !== null
      ? status === 'completed'
        ? await dropFromBatch(entry, true)
        : status === 'ready'
          ? await queue.update(db, entry, { status, batchId: entry.batchId, batchNumber: entry.batchNumber })
          : await takeOutOfBatch(entry, status)
      : status === 'completed'
        ? await queue.complete(db, entry)
        : await queue.update(db, entry, { status, batchId: null, batchNumber: null });
  if (updated.status === 'completed' && updated.exitTime !== null) {
    await recordPickups(entry.sessionId, [updated], updated.exitTime);
  }
  await publishToStaff(entry.schoolId, {
    type: 'QUEUE_STATUS_UPDATED',
    data: { id, sessionId: entry.sessionId, status: updated.status },
  });
  return updated;
};

/**
 * `PUT /api/queue/{id}`: with a batch id, puts a waiting entry into that
 * loading batch; with null, moves it out of its batch, back to waiting or to
 * overflow.
 */
export const updateEntry = async (
  user: User,
  id: string,
  change: { batchId: number | null; status: 'waiting' | 'overflow' },
): Promise<QueueEntry> => {
  const entry = await entryOfSchool(user, id);
  if (change.batchId !== null) {
    if (change.status !== 'waiting') throw new ConflictError('A vehicle in a batch has the status waiting');
    return placeInBatch(user, entry, change.batchId);
  }
  if (!canTransition(entry.status, change.status)) {
    throw new ConflictError(
      `Vehicle ${entry.vehicleNumber} cannot go from ${entry.status} to ${change.status}`,
    );
  }
  const updated =
    entry.batchId !== null
      ? await takeOutOfBatch(entry, change.status)
      : await queue.update(db, entry, { status: change.status, batchId: null, batchNumber: null });
  await publishToStaff(entry.schoolId, {
    type: 'QUEUE_STATUS_UPDATED',
    data: { id, sessionId: entry.sessionId, status: updated.status },
  });
  return updated;
};
