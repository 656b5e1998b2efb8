import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { batches, batchIdOf, DERIVED_IDS_FROM, lineOfBatchId, NUMBERS_PER_LINE } from '../src/batch';
import { nextId } from '../src/ids';
import { queue } from '../src/queue';
import { arrivingCar, rec } from './arrivals';
import { testDb } from './fixtures/db';

/**
 * A new batch's id (issue 54): derived from its session, type and number in a
 * range of its own, so a new batch takes one counter (its number), never
 * meets an id the batch counter gave, and names the line it loads from.
 */
const db = testDb();

const queueCar = (sessionId: number, vehicleNumber: string) =>
  queue.add(db, arrivingCar(sessionId, vehicleNumber), rec);
const newBatch = (sessionId: number, vehicleType: 'car' | 'bus' = 'car') =>
  batches.create(db, { sessionId, schoolId: 1, vehicleType, maxCapacity: 8 }, rec);

describe('batch ids', () => {
  it('are derived from the session, type and number, above every id the counter gave, and name their line', async () => {
    // Ids the counter gave before (batches created earlier) stay where they were.
    const before = await nextId(db, 'batch');
    const car = await newBatch(9401);
    const bus = await newBatch(9401, 'bus');
    const other = await newBatch(9402);
    expect([car.batchNumber, bus.batchNumber, other.batchNumber]).toEqual([1, 2, 1]);
    const ids = [car.id, bus.id, other.id];
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) {
      expect(id).toBeGreaterThan(DERIVED_IDS_FROM);
      expect(Number.isSafeInteger(id)).toBe(true);
    }
    expect(before).toBeLessThan(DERIVED_IDS_FROM);
    // The counter was not raised by them.
    expect(await nextId(db, 'batch')).toBe(before + 1);
    expect(lineOfBatchId(car.id)).toEqual({ sessionId: 9401, vehicleType: 'car' });
    expect(lineOfBatchId(bus.id)).toEqual({ sessionId: 9401, vehicleType: 'bus' });
    expect(lineOfBatchId(before)).toBeUndefined();
    expect(await batches.get(db, car.id)).toMatchObject({ id: car.id, sessionId: 9401, batchNumber: 1 });
  });

  it('come from the counter only past the numbers a line holds', async () => {
    // A session already at the last number a derived id holds: the next batch's id comes from the counter.
    await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: { pk: 'SESSION#9404', sk: 'BATCH_SEQ' },
        UpdateExpression: 'SET #value = :last',
        ExpressionAttributeNames: { '#value': 'value' },
        ExpressionAttributeValues: { ':last': NUMBERS_PER_LINE - 1 },
      }),
    );
    const counted = await nextId(db, 'batch');
    const late = await newBatch(9404);
    expect(late.batchNumber).toBe(NUMBERS_PER_LINE);
    expect(late.id).toBe(counted + 1);
    expect(lineOfBatchId(late.id)).toBeUndefined();
    expect(await batches.get(db, late.id)).toMatchObject({ sessionId: 9404, batchNumber: NUMBERS_PER_LINE });
  });

  it('never meet: every session, type and number gives its own id, none where it would not be a safe integer', () => {
    const seen = new Set<number>();
    for (const sessionId of [1, 2, 3, 4_999, 5_000, 123_456_789]) {
      for (const type of ['car', 'bus'] as const) {
        for (const number of [1, 2, 9_998, NUMBERS_PER_LINE - 1]) {
          const id = batchIdOf(sessionId, type, number) as number;
          expect(lineOfBatchId(id)).toEqual({ sessionId, vehicleType: type });
          seen.add(id);
        }
      }
    }
    expect(seen.size).toBe(6 * 2 * 4);
    expect(batchIdOf(1, 'car', NUMBERS_PER_LINE)).toBeUndefined();
    expect(batchIdOf(1, 'car', 0)).toBeUndefined();
    expect(batchIdOf(10 ** 12, 'car', 1)).toBeUndefined();
  });

  it('add-to-batch answers the batch as it is after it, from a stale read too', async () => {
    const batch = await newBatch(9405);
    const first = await batches.addEntry(db, batch, await queueCar(9405, '71'), rec);
    expect(first).toMatchObject({ id: batch.id, currentCount: 1, version: batch.version + 1 });
    // Another tablet's add meanwhile: the batch as read before it is moved on; the add still goes in, counted right.
    const second = await batches.addEntry(db, batch, await queueCar(9405, '72'), rec);
    const now = await batches.withMembers(db, batch.id);
    expect(second).toEqual(now?.batch);
    expect(now?.batch).toMatchObject({ currentCount: 2, version: batch.version + 2 });
    expect(now?.memberIds).toHaveLength(2);
  });
});
