import {
  type AddVehicleRequest,
  ConflictError,
  canTransition,
  NotFoundError,
  notComingError,
  type PickupSession,
  type QueueEntry,
  type QueueStatus,
  type Recording,
  type ReleaseMark,
  type RemovalReason,
  summaryOf,
  type User,
  type Vehicle,
  type VehicleType,
  vehicleName,
} from '@curbside/domain';
import {
  keyedReads,
  keyedRestoreRead,
  keyedSessionAndVehicle,
  parseEntryId,
  pickupSessions,
  queue,
  type RestoreRead,
  releases,
  restoreVisit,
  students,
  type Visit,
} from '@curbside/store';
import { knownSchoolOf, type SignInRead } from '../lib/auth';
import { db } from '../lib/context';
import { earlyOr } from '../lib/early-read';
import { answerInTheChange, refreshOnReplay } from '../lib/idempotency';
import { countMetric } from '../lib/log';
import { dropFromBatch, type EntryChange, placeInBatch, takeOutOfBatch } from './batches';
import { completeWithPickups, releasesBeforeCompletion } from './completion';
import { pickedUp, publishToSession } from './live-events';
import { parentsConcernOf } from './parent-events';
import { recordingBy } from './record';
import { schoolToday } from './school-clock';
import { activeEntryOfSchool, assertSessionOfSchool, runningOf, runningSession } from './scope';
import { ownSchoolId } from './tenancy';
import { type VisitCalls, visitCalls } from './way-calls';

/** A session's active queue, in order (the read `listQueue` answers, or a screen's poll starts early). */
export const activeQueue = (sessionId: number): Promise<QueueEntry[]> => queue.listActive(db, sessionId);

/**
 * A session's active queue, or its completed pickups. `early`: the active
 * queue as the route's early reads (`http/listQueue.ts`) started reading it with the caller's sign-in; should
 * that read fail, the queue is read again, as the other routes' early reads are.
 */
export const listQueue = async (
  user: User,
  sessionId: number,
  status?: 'completed',
  early?: Promise<QueueEntry[]>,
) => {
  const active = () => activeQueue(sessionId);
  // One round trip: the list is read while the session's school is checked, and answered only once it holds.
  const [, list] = await Promise.all([
    assertSessionOfSchool(user, sessionId),
    status === 'completed' ? queue.listCompleted(db, sessionId) : earlyOr(early, active),
  ]);
  return list;
};

const snapshot = ({ studentIds: _, schoolId: __, ...vehicle }: Vehicle) => vehicle;

const NOBODY: VisitCalls = { called: [], notCalled: [] };

/**
 * Who a visit calls: in an afternoon's dismissal, the children whose way home
 * today goes with this vehicle (issue 52, `visitCalls`); in a morning
 * drop-off, every child the vehicle is registered with.
 */
const callsFor = async (
  schoolId: number,
  session: PickupSession | undefined,
  vehicle: Vehicle | undefined,
  today: Promise<string>,
): Promise<VisitCalls> => {
  if (!vehicle || !session) return NOBODY;
  if (session.type === 'morning_dropoff') {
    return {
      called: (await students.getMany(db, schoolId, vehicle.studentIds)).map(summaryOf),
      notCalled: [],
    };
  }
  return visitCalls(schoolId, await today, vehicle);
};

/** What queueing a vehicle reads first: the session, the vehicle and its earlier visit, then who it calls today. */
export const addReads = async (
  schoolId: number,
  sessionId: number,
  vehicleType: VehicleType,
  vehicleNumber: string,
  signIn?: SignInRead,
) => {
  const today = schoolToday(schoolId);
  today.catch(() => undefined);
  // The session, the vehicle and the car's marker of its ended visits in one BatchGetItem (the
  // sign-in's own when started with it). A session begun before the markers: its earlier visit
  // by Query, beside who the car calls.
  const place = keyedSessionAndVehicle({ schoolId, sessionId, type: vehicleType, number: vehicleNumber });
  const { session, vehicle, visited, queued } = await (signIn ? signIn(place) : keyedReads.run(db, place));
  // A vehicle in the queue now is refused from this read (h54ze): nothing more is read for it.
  if (queued) return [session, vehicle, false, NOBODY, queued] as const;
  const [requeue, calls] = await Promise.all([
    visited ?? queue.visitedBefore(db, sessionId, vehicleType, vehicleNumber),
    callsFor(schoolId, session?.schoolId === schoolId ? session : undefined, vehicle, today),
  ]);
  return [session, vehicle, requeue, calls, queued] as const;
};

/** Queueing a vehicle's first reads, and what they were read for (`http/addToQueue.ts` starts them early). */
export interface AddReads {
  schoolId: number;
  sessionId: number;
  vehicleType: VehicleType;
  vehicleNumber: string;
  reads: Awaited<ReturnType<typeof addReads>>;
}

/**
 * Queues a vehicle by number as a new visit (an unregistered number is
 * queued without details) and answers it with its place in its type's line.
 * The request is the body as its route validated it (`addVehicleSchema`): it
 * is not parsed again here.
 */
export const addVehicle = async (
  user: User,
  { sessionId, vehicleNumber, vehicleType, queueAnyway }: AddVehicleRequest,
  early?: Promise<AddReads>,
): Promise<QueueEntry> => {
  const schoolId = ownSchoolId(user);
  const started = await early?.catch(() => undefined);
  const same =
    started?.schoolId === schoolId &&
    started.sessionId === sessionId &&
    started.vehicleType === vehicleType &&
    started.vehicleNumber === vehicleNumber;
  // Independent reads, one round trip, then the riders (or none more: the route's early reads).
  const [[session, vehicle, requeue, calls, queued], record] = await Promise.all([
    same ? started.reads : addReads(schoolId, sessionId, vehicleType, vehicleNumber),
    recordingBy(user, schoolId),
  ]);
  runningOf(user, sessionId, session);
  if (queued) throw queue.alreadyQueued(vehicleNumber);
  // A car none of whose children goes home in it today: the staff decide (an adult in a car is a person waiting).
  if (vehicleType === 'car' && calls.called.length === 0 && calls.notCalled.length > 0 && !queueAnyway)
    throw notComingError(vehicleName(vehicleType, vehicleNumber), calls.notCalled);
  return enqueue({ schoolId, sessionId, vehicleNumber, vehicleType }, vehicle, requeue, calls, record, {
    answered: true,
    slotReadFree: true,
  });
};

/** What a replay of `POST /api/queue` makes again: the entry's place in line as it is now. */
const PLACE_IN_LINE = 'placeInLine';
refreshOnReplay(PLACE_IN_LINE, async (answer) => {
  const entry = JSON.parse(answer.body) as QueueEntry;
  return { ...answer, body: JSON.stringify({ ...entry, position: await queue.positionOf(db, entry) }) };
});

/**
 * Queues the vehicle as a new visit (with its record, by `record`'s actor),
 * tells the screens, and answers the entry with its place in line. The
 * session was checked running by the caller. `queuedBy`: the visit came from
 * a family's own announcement (issue 53). `answered`: the request's answer is
 * the entry (`POST /api/queue`, 201), kept in its Idempotency-Key's claim in
 * the entry's own transaction (ADR 0027: no write after it; a replay reads
 * the place in line again). `slotReadFree`: the caller read the vehicle's slot
 * in the queue free, so the transaction is refused only by a tablet queueing
 * it at the same moment or by a retry's key: the event's number, the school's
 * connections and the place in line are read beside it (h54ze).
 */
const enqueue = async (
  { schoolId, sessionId, vehicleNumber, vehicleType }: Omit<AddReads, 'reads'>,
  vehicle: Vehicle | undefined,
  requeue: boolean,
  calls: VisitCalls,
  record: Recording,
  {
    queuedBy,
    answered = false,
    slotReadFree = false,
  }: { queuedBy?: 'announcement'; answered?: boolean; slotReadFree?: boolean } = {},
): Promise<QueueEntry> => {
  const now = new Date().toISOString();
  const made = queue.entryOf({
    sessionId,
    schoolId,
    vehicleId: vehicle?.id ?? null,
    vehicleNumber,
    vehicleType,
    entryTime: now,
    queueTime: now,
    vehicle: vehicle ? snapshot(vehicle) : null,
    students: calls.called,
    ...(calls.notCalled.length > 0 ? { notCalled: calls.notCalled } : {}),
    ...(queuedBy ? { queuedBy } : {}),
  });
  if (answered) answerInTheChange(201, made, PLACE_IN_LINE);
  // The entry `queue.add` commits is `made` itself: the event is made once, its parents named from it.
  const event = {
    type: 'VEHICLE_QUEUED' as const,
    data: {
      entry: made,
      vehicle: {
        number: made.vehicleNumber,
        type: made.vehicleType,
        make: vehicle?.make ?? null,
        model: vehicle?.model ?? null,
        color: vehicle?.color ?? null,
        parentName: vehicle?.parentName ?? null,
        alternateContactName: vehicle?.alternateContactName ?? null,
      },
    },
  };
  const added = queue.add(db, made, record, requeue);
  if (!slotReadFree) await added;
  // The place in line and the announcement do not wait for each other (nor for the commit, `slotReadFree`).
  const [position, entry] = await Promise.all([
    queue.positionOf(db, made),
    added,
    publishToSession(
      schoolId,
      sessionId,
      added.then(() => event),
      undefined,
      undefined,
      // Its parents are known before the commit: the fan-out reads their pages only (h54zf).
      parentsConcernOf(event),
    ),
  ]);
  countMetric('carsQueued');
  return { ...entry, position };
};

/**
 * Queues a family's registered car for their announcement (issue 53, `auto`):
 * as staff typing its number would, in a session the caller found running,
 * recorded with the parent as the actor and marked `queuedBy: announcement`;
 * it calls the children whose way home today is this car (issue 52).
 * ConflictError when the car is already in the queue.
 */
export const queueAnnouncedCar = async (
  session: PickupSession,
  vehicle: Vehicle,
  record: Recording,
): Promise<QueueEntry> => {
  const { schoolId, id: sessionId } = session;
  const [requeue, calls] = await Promise.all([
    queue.visitedBefore(db, sessionId, vehicle.type, vehicle.number),
    callsFor(schoolId, session, vehicle, schoolToday(schoolId)),
  ]);
  return enqueue(
    { schoolId, sessionId, vehicleNumber: vehicle.number, vehicleType: vehicle.type },
    vehicle,
    requeue,
    calls,
    record,
    { queuedBy: 'announcement' },
  );
};

/**
 * Before an entry is completed: who records it, and its children's release
 * marks (409 naming the unreleased ones unless `confirmed`), read side by side.
 */
const completionReads = (user: User, entry: QueueEntry, confirmed: boolean) =>
  Promise.all([
    recordingBy(user, entry.schoolId),
    releasesBeforeCompletion(entry.sessionId, [entry], confirmed),
  ]);

/**
 * Removes an entry, saying what happened (`reason`): `picked_up` completes
 * the pickup exactly as a batch completion does (the visit is kept as
 * completed and its students are marked picked up; a child no teacher
 * released answers 409 naming them unless `confirmUnreleased`); `left` and
 * `removed` keep the visit as removed. A visit that already ended answers
 * 409 saying how; a second removal of the same visit is 'already removed'.
 */
export const removeEntry = async (
  user: User,
  id: string,
  reason: RemovalReason = 'removed',
  confirmUnreleased = false,
  early?: Promise<Visit | undefined>,
): Promise<QueueEntry> => {
  const entry = await activeEntryOfSchool(user, id, early);
  if (reason === 'picked_up') {
    const [record, marks] = await completionReads(user, entry, confirmUnreleased);
    const changed =
      entry.batchId !== null
        ? await dropFromBatch(entry, record, 'picked_up', marks)
        : alone(await completeAlone(entry, record, marks));
    const completed = changed.entry;
    await publishToSession(
      entry.schoolId,
      entry.sessionId,
      changed.batch.then((now) => ({
        type: 'VEHICLE_REMOVED' as const,
        data: { entry: completed, batch: now },
      })),
      undefined,
      pickedUp([completed]),
    );
    return completed;
  }
  const record = await recordingBy(user, entry.schoolId);
  const { entry: removed, batch } =
    entry.batchId !== null
      ? await dropFromBatch(entry, record, reason)
      : alone(await queue.remove(db, entry, record, reason));
  await publishToSession(
    entry.schoolId,
    entry.sessionId,
    batch.then((now) => ({ type: 'VEHICLE_REMOVED' as const, data: { entry: removed, batch: now } })),
  );
  return removed;
};

/** A change to an entry in no batch. */
const alone = (entry: QueueEntry): EntryChange => ({ entry, batch: Promise.resolve(null) });

/** Tells the staff an entry changed (with its batch's new count once read); a pickup joins the wait estimate's sample. */
const announceChange = (entry: QueueEntry, change: EntryChange) =>
  publishToSession(
    entry.schoolId,
    entry.sessionId,
    change.batch.then((batch) => ({
      type: 'QUEUE_STATUS_UPDATED' as const,
      data: { entry: change.entry, batch },
    })),
    undefined,
    change.entry.status === 'completed' ? pickedUp([change.entry]) : undefined,
  );

const refuseTransition = (entry: QueueEntry, status: QueueStatus) => {
  if (!canTransition(entry.status, status)) {
    throw new ConflictError(`Vehicle ${entry.vehicleNumber} cannot go from ${entry.status} to ${status}`);
  }
};

/**
 * A batch-less entry completed (a pickup, with its children's release marks),
 * its children marked picked up in the same transaction when they fit (issue
 * 54: no call of their own), else after it.
 */
const completeAlone = async (
  entry: QueueEntry,
  record: Recording,
  marks?: ReadonlyMap<number, ReleaseMark>,
): Promise<QueueEntry> =>
  completeWithPickups(entry, record, marks, (exitTime, pickups) =>
    queue.complete(db, entry, record, exitTime, marks, pickups),
  );

/** A batch-less entry's new status: completed (`completeAlone`) or another. */
const changeStatus = async (
  entry: QueueEntry,
  status: QueueStatus,
  record: Recording,
  marks?: ReadonlyMap<number, ReleaseMark>,
): Promise<QueueEntry> =>
  status === 'completed'
    ? completeAlone(entry, record, marks)
    : queue.update(db, entry, { status, batchId: null, batchNumber: null }, record);

/**
 * Changes an entry's status; completing records exitTime, keeps the visit for
 * Recent Pickups and marks its students picked up (a child no teacher
 * released answers 409 naming them unless `confirmUnreleased`).
 */
export const setEntryStatus = async (
  user: User,
  id: string,
  status: QueueStatus,
  confirmUnreleased = false,
  early?: Promise<Visit | undefined>,
): Promise<QueueEntry> => {
  const entry = await activeEntryOfSchool(user, id, early);
  refuseTransition(entry, status);
  const [record, marks] =
    status === 'completed'
      ? await completionReads(user, entry, confirmUnreleased)
      : [await recordingBy(user, entry.schoolId), undefined];
  let changed: EntryChange;
  if (entry.batchId === null) changed = alone(await changeStatus(entry, status, record, marks));
  else if (status === 'completed') changed = await dropFromBatch(entry, record, 'picked_up', marks);
  else if (status === 'ready') {
    changed = alone(
      await queue.update(
        db,
        entry,
        { status, batchId: entry.batchId, batchNumber: entry.batchNumber },
        record,
      ),
    );
  } else changed = await takeOutOfBatch(entry, status, record);
  // A completed entry's children were marked with its completion (`completeAlone`, `dropFromBatch`).
  await announceChange(entry, changed);
  return changed.entry;
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
  early?: Promise<Visit | undefined>,
): Promise<QueueEntry> => {
  const entry = await activeEntryOfSchool(user, id, early);
  if (change.batchId !== null) {
    if (change.status !== 'waiting') throw new ConflictError('A vehicle in a batch has the status waiting');
    return placeInBatch(user, entry, change.batchId);
  }
  refuseTransition(entry, change.status);
  const record = await recordingBy(user, entry.schoolId);
  const changed =
    entry.batchId !== null
      ? await takeOutOfBatch(entry, change.status, record)
      : alone(await changeStatus(entry, change.status, record));
  await announceChange(entry, changed);
  return changed.entry;
};

/**
 * Restore's first read, the session the visit was in (its id names it), in
 * the caller's sign-in read for a staff member this instance signed in at a
 * school; none otherwise.
 */
export const earlyRestore = (userId: number, { params }: { params: { id: string } }, signIn: SignInRead) => {
  const parsed = parseEntryId(params.id);
  return parsed && knownSchoolOf(userId) !== undefined
    ? signIn(keyedReads.all(pickupSessions.keyed(parsed.sessionId), keyedRestoreRead(params.id)))
    : undefined;
};

/**
 * `POST /api/queue/{id}/restore`: Undo of a removal or a pickup within 60 s.
 * The visit comes back with its id and place (and its batch while that batch
 * is loading with room), its students' picked-up marks are taken back, and
 * every screen is told at once. 409 after 60 s or once the car was queued again.
 */
export const restoreEntry = async (
  user: User,
  id: string,
  early?: Promise<[PickupSession | undefined, RestoreRead]>,
): Promise<QueueEntry> => {
  const parsed = parseEntryId(id);
  if (!parsed) throw new NotFoundError('Queue entry not found');
  // The session, the slot and the visit as read in the sign-in's own read (`earlyRestore`),
  // or again should that read fail.
  const started = await early?.catch(() => undefined);
  const session = started
    ? runningOf(user, parsed.sessionId, started[0])
    : await runningSession(user, parsed.sessionId);
  const record = await recordingBy(user, session.schoolId);
  const { entry, batch, wasPickup, pickedUpAt, marksTakenBack } = await restoreVisit(
    db,
    id,
    record,
    new Date(),
    started?.[1],
    // The answer kept in the key's claim (no write after the change; a replay reads the place in line again).
    { beforeCommit: (restored) => answerInTheChange(200, restored, PLACE_IN_LINE) },
  );
  if (wasPickup && !marksTakenBack) await releases.unPickUp(db, entry.sessionId, entry);
  const [position] = await Promise.all([
    queue.positionOf(db, entry),
    publishToSession(
      entry.schoolId,
      entry.sessionId,
      { type: 'VEHICLE_RESTORED', data: { entry, batch } },
      undefined,
      // The pickup taken back leaves the wait estimate's sample.
      pickedUpAt === null
        ? undefined
        : { undone: { id, vehicleType: entry.vehicleType, exitTime: pickedUpAt } },
    ),
  ]);
  return { ...entry, position };
};
