/**
 * Car-line changes refused from their first read, and answers kept in the
 * key's claim, with the calls they make counted by the meter (ADR 0027, h54ze).
 */
import { ConflictError } from '@curbside/domain';
import {
  batches,
  eventSequence,
  IdempotencyKeyTakenError,
  idempotency,
  meter,
  queue,
  type TransactionClaim,
} from '@curbside/store';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { db, testConnectionsDb } from '../../packages/store/test/fixtures/db';
import { addNextToBatch, type BatchReads, createBatch } from '../src/services/batches';
import { addVehicle } from '../src/services/queue';
import { schoolWithSession } from './fixtures';

// The meter on before the table handles are made (they count calls only when made metered).
vi.hoisted(() => {
  process.env.CURBSIDE_METER = '1';
});
afterAll(() => {
  meter.reset();
  delete process.env.CURBSIDE_METER;
});

/** A tablet's reads beside its sign-in, its batch and its line (read now, before another tablet's add). */
const readBefore = async (sessionId: number, batchId: number): Promise<BatchReads> => {
  const early: BatchReads = {
    batchId,
    batch: batches.get(db, batchId),
    line: { sessionId, vehicleType: 'car', read: queue.waitingForBatch(db, sessionId, 'car', 4) },
  };
  await early.batch;
  await early.line?.read;
  return early;
};

describe('add-to-batch when another tablet took the car its first read found', () => {
  /** A tablet that read its batch and the line with one car in it, which another tablet's add then took. */
  const takenFromUnder = async (name: string) => {
    const { user, session } = await schoolWithSession(db, name, 'back_queue_wrangler');
    await addVehicle(user, { sessionId: session.id, vehicleNumber: '1', vehicleType: 'car' });
    const mine = await createBatch(user, session.id, 'car');
    const theirs = await createBatch(user, session.id, 'car');
    // What this tablet read beside its sign-in: its batch, and the line with the one car in it.
    const early = await readBefore(session.id, mine.id);
    // Another tablet's Add to batch takes the car first.
    expect((await addNextToBatch(user, theirs.id)).currentCount).toBe(1);
    return { user, session, mine, early };
  };

  it('is refused from that read (409), with no read of the line again', async () => {
    const { user, mine, early } = await takenFromUnder('Taken Car School');

    meter.reset();
    const refused = await meter
      .run('taken', () => addNextToBatch(user, mine.id, Promise.resolve(early)))
      .catch((error: unknown) => error);

    expect(refused).toBeInstanceOf(ConflictError);
    expect((refused as Error).message).toBe('No waiting cars to add to Batch #1');
    const calls = meter.snapshot().taken ?? {};
    // One transaction, refused (the car was taken); the line as read held nothing else.
    expect(calls['ddb.TransactWriteItems.calls']).toBe(1);
    expect(calls['ddb.Query.calls'] ?? 0).toBe(0);
    expect((await batches.get(db, mine.id))?.currentCount).toBe(0);
  });

  const claimOf = (key: string): TransactionClaim => ({
    table: db.table,
    caller: 'USER#1',
    key,
    fingerprint: `add-${key}`,
    state: 'pending',
  });

  it('answers that 409 from its transaction with the key free: the claim is settled as refused, no key read after it (h54j)', async () => {
    const { user, session, mine, early } = await takenFromUnder('Refused Key School');
    const claim = claimOf(`refused-${session.id}`);

    meter.reset();
    const refused = await meter
      .run('refused', () =>
        idempotency.claimingIn(claim, () => addNextToBatch(user, mine.id, Promise.resolve(early))),
      )
      .catch((error: unknown) => error);

    // The same answer as without a key, and nothing of the key written.
    expect(refused).toBeInstanceOf(ConflictError);
    expect((refused as Error).message).toBe('No waiting cars to add to Batch #1');
    expect(claim.state).toBe('refused');
    expect(await idempotency.get(db, claim.caller, claim.key)).toBeUndefined();
    expect(meter.snapshot().refused?.['ddb.TransactWriteItems.calls']).toBe(1);
  });

  it('leaves a retry whose first attempt took the car to find its first answer: its transaction finds the key', async () => {
    const { user, session } = await schoolWithSession(db, 'Retried Key School', 'back_queue_wrangler');
    await addVehicle(user, { sessionId: session.id, vehicleNumber: '1', vehicleType: 'car' });
    const mine = await createBatch(user, session.id, 'car');
    // The retry read the line before its first attempt (the same key) took the car.
    const early = await readBefore(session.id, mine.id);
    const first = claimOf(`retried-${session.id}`);
    expect((await idempotency.claimingIn(first, () => addNextToBatch(user, mine.id))).currentCount).toBe(1);
    expect(first.state).toBe('committed');
    const retry = claimOf(`retried-${session.id}`);

    const refused = await idempotency
      .claimingIn(retry, () => addNextToBatch(user, mine.id, Promise.resolve(early)))
      .catch((error: unknown) => error);

    // Not settled as a refusal: the key is read after it, and the retry answered as the first attempt was.
    expect(refused).toBeInstanceOf(IdempotencyKeyTakenError);
    expect(retry.state).toBe('taken');
    expect((await idempotency.get(db, retry.caller, retry.key))?.state).toBe('completed');
  });

  it('leaves a refusal read from an empty line (no transaction) to the key read after it', async () => {
    const { user, session } = await schoolWithSession(db, 'Empty Line Key School', 'back_queue_wrangler');
    await addVehicle(user, { sessionId: session.id, vehicleNumber: '1', vehicleType: 'car' });
    const mine = await createBatch(user, session.id, 'car');
    const first = claimOf(`empty-${session.id}`);
    await idempotency.claimingIn(first, () => addNextToBatch(user, mine.id));
    // The retry reads the line after its first attempt took the car: nothing waits.
    const retry = claimOf(`empty-${session.id}`);

    const refused = await idempotency
      .claimingIn(retry, () => addNextToBatch(user, mine.id))
      .catch((error: unknown) => error);

    expect((refused as Error).message).toBe('No waiting cars to add to Batch #1');
    // Still pending: the key is read after the refusal, and the first answer sent.
    expect(retry.state).toBe('pending');
  });

  it("keeps no answer in the key's claim when another add moved its batch on: the batch is read after", async () => {
    const { user, session } = await schoolWithSession(db, 'Moved Batch School', 'back_queue_wrangler');
    await addVehicle(user, { sessionId: session.id, vehicleNumber: '1', vehicleType: 'car' });
    await addVehicle(user, { sessionId: session.id, vehicleNumber: '2', vehicleType: 'car' });
    const batch = await createBatch(user, session.id, 'car');
    // This tablet read the batch empty; another tablet's add commits before this one's transaction.
    const early: BatchReads = { batchId: batch.id, batch: batches.get(db, batch.id), line: undefined };
    await early.batch;
    expect((await addNextToBatch(user, batch.id)).currentCount).toBe(1);
    const claim: TransactionClaim = {
      table: db.table,
      caller: 'USER#1',
      key: 'moved-batch-key',
      fingerprint: 'moved',
      state: 'pending',
    };

    const joined = await idempotency.claimingIn(claim, () =>
      addNextToBatch(user, batch.id, Promise.resolve(early)),
    );

    expect(joined.currentCount).toBe(2);
    expect(claim.state).toBe('committed');
    // Not the batch as this tablet read it with one more (a count of 1): its answer is kept after the change.
    expect(claim.answered).toBeUndefined();
  });
});

describe('add-to-batch when its first read held two waiting cars or more', () => {
  const numberOf = (sessionId: number) =>
    eventSequence.next({ live: testConnectionsDb(), data: db }, sessionId);
  /** A school whose line holds `cars` cars, a batch, and that batch's reads beside the sign-in (taken now). */
  const lineOf = async (name: string, cars: number) => {
    const { user, session } = await schoolWithSession(db, name, 'back_queue_wrangler');
    for (let car = 1; car <= cars; car++)
      await addVehicle(user, { sessionId: session.id, vehicleNumber: String(car), vehicleType: 'car' });
    const mine = await createBatch(user, session.id, 'car');
    return { user, session, mine, early: await readBefore(session.id, mine.id) };
  };

  it("answers 409 when other tablets took every car it read, and takes no event number (no gap for the line's screens)", async () => {
    const { user, session, mine, early } = await lineOf('Every Car Taken School', 2);
    const theirs = await createBatch(user, session.id, 'car');
    await addNextToBatch(user, theirs.id);
    await addNextToBatch(user, theirs.id);
    const before = await numberOf(session.id);

    const refused = await addNextToBatch(user, mine.id, Promise.resolve(early)).catch(
      (error: unknown) => error,
    );

    expect(refused).toBeInstanceOf(ConflictError);
    expect((refused as Error).message).toBe('No waiting cars to add to Batch #1');
    expect((await batches.get(db, mine.id))?.currentCount).toBe(0);
    // A number taken and left unused would be a gap: every line screen would hold later events for
    // 1.5 s and read the whole line again. The next number follows the last one used.
    expect(await numberOf(session.id)).toBe(before + 1);
  });
});

describe('queueing a car that is in the line already', () => {
  it('is refused from the first read (409): no transaction, and no event number taken', async () => {
    const { user, session } = await schoolWithSession(db, 'Twice Queued School', 'front_queue_wrangler');
    const car = { sessionId: session.id, vehicleNumber: '77', vehicleType: 'car' as const };
    await addVehicle(user, car);
    const numbered = await eventSequence.next({ live: testConnectionsDb(), data: db }, session.id);

    meter.reset();
    const refused = await meter.run('twice', () => addVehicle(user, car)).catch((error: unknown) => error);

    expect(refused).toBeInstanceOf(ConflictError);
    expect((refused as Error).message).toBe('Vehicle 77 is already in the queue');
    const calls = meter.snapshot().twice ?? {};
    expect(calls['ddb.TransactWriteItems.calls'] ?? 0).toBe(0);
    expect(calls['ddb.UpdateItem.calls'] ?? 0).toBe(0);
    // The line's screens see no gap: the next change takes the next number.
    expect(await eventSequence.next({ live: testConnectionsDb(), data: db }, session.id)).toBe(numbered + 1);
  });
});
