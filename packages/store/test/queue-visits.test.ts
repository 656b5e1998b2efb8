import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { QueueEntry, StudentSummary, Vehicle } from '@curbside/domain';
import { describe, expect, it } from 'vitest';
import { batches } from '../src/batch';
import { eventSequence } from '../src/event-sequence';
import { keyedReads } from '../src/keyed-read';
import { itemSize } from '../src/meter';
import { activeEntryKey, PICKUPS_IN_COMPLETION, queue, waitingIndex } from '../src/queue';
import { releases } from '../src/release';
import { students } from '../src/student';
import { arrivingCar, nextTime, rec } from './arrivals';
import { testConnectionsDb, testDb } from './fixtures/db';

/**
 * The access patterns of stable queue visits against DynamoDB Local: visits
 * by id, the waiting line, batch members, completed pickups, students by
 * classroom and the event sequence.
 */
const db = testDb();

const queueCar = (sessionId: number, vehicleNumber: string, riders: StudentSummary[] = []) =>
  queue.add(db, arrivingCar(sessionId, vehicleNumber, riders), rec);
const newBatch = (sessionId: number, maxCapacity = 8) =>
  batches.create(db, { sessionId, schoolId: 1, vehicleType: 'car', maxCapacity }, rec);

describe('a visit by id', () => {
  it('refuses a write held to an earlier visit of the same car, by its condition, and leaves the new visit alone', async () => {
    const sessionId = 9301;
    const first = await queueCar(sessionId, '104');
    await queue.complete(db, first, rec);
    const second = await queueCar(sessionId, '104');
    expect(second.id).not.toBe(first.id);

    // `first` is what a stale tablet still holds: same car, same slot, another visit.
    await expect(
      queue.update(db, first, { status: 'overflow', batchId: null, batchNumber: null }, rec),
    ).rejects.toThrow('Vehicle 104 was already picked up');
    await expect(queue.remove(db, first, rec)).rejects.toThrow('Vehicle 104 was already picked up');
    const batch = await newBatch(sessionId);
    expect(await batches.addEntry(db, batch, first, rec)).toBe('taken');

    expect(await queue.lookup(db, second.id)).toEqual({ state: 'active', entry: second });
    expect((await batches.get(db, batch.id))?.currentCount).toBe(0);
  });

  it('refuses a write held to an old version of the visit as changed by someone else', async () => {
    const sessionId = 9302;
    const seen = await queueCar(sessionId, '105');
    const moved = await queue.update(db, seen, { status: 'ready', batchId: null, batchNumber: null }, rec);
    expect(moved.version).toBe(seen.version + 1);
    await expect(queue.complete(db, seen, rec)).rejects.toThrow(/was changed by someone else/);
    expect((await queue.lookup(db, seen.id))?.state).toBe('active');
  });

  it('keeps a removed visit as removed (for 30 days), and answers nothing for an id never given', async () => {
    const sessionId = 9303;
    const entry = await queueCar(sessionId, '106');
    await queue.remove(db, entry, rec);
    const visit = await queue.lookup(db, entry.id);
    expect(visit).toMatchObject({ state: 'removed', entry: { id: entry.id, vehicleNumber: '106' } });
    await expect(queue.remove(db, entry, rec)).rejects.toThrow(
      'Vehicle 106 was already removed from the queue',
    );
    const { Item } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: { pk: `QUEUE#${sessionId}`, sk: `VISIT#${entry.id}` } }),
    );
    expect(Item?.ttl).toBeGreaterThan(Date.now() / 1000 + 29 * 24 * 3600);
    expect(await queue.lookup(db, `${sessionId}-car-106-1-abc`)).toBeUndefined();
    expect(await queue.lookup(db, 'garbage')).toBeUndefined();
  });

  it('answers a visit read by key (in a shared BatchGetItem) as its lookup does: active, picked up, removed, none', async () => {
    const sessionId = 9381;
    const active = await queueCar(sessionId, '107');
    const done = await queueCar(sessionId, '108');
    await queue.complete(db, done, rec);
    const again = await queueCar(sessionId, '108');
    const removed = await queueCar(sessionId, '109');
    await queue.remove(db, removed, rec);
    for (const id of [active.id, done.id, again.id, removed.id, `${sessionId}-car-110-1-abc`, 'garbage']) {
      expect(await keyedReads.run(db, queue.keyedLookup(id)), id).toEqual(await queue.lookup(db, id));
    }
    expect((await keyedReads.run(db, queue.keyedLookup(done.id)))?.state).toBe('pickedUp');
    expect((await keyedReads.run(db, queue.keyedLookup(again.id)))?.state).toBe('active');
  });

  it("marks a car's children picked up in its completion's own transaction, and refuses more than fit", async () => {
    const sessionId = 9382;
    const riders = [1, 2].map((id) => ({
      id: 930_500 + id,
      firstName: 'Kid',
      lastName: `${id}`,
      grade: '2',
      classroomId: 77,
    }));
    const entry = await queueCar(sessionId, '111', riders);
    const exitTime = nextTime();
    const pickups = releases.pickUpItems(entry, [entry], rec, exitTime);
    expect(pickups).toHaveLength(2);
    await queue.complete(db, entry, rec, exitTime, undefined, pickups);
    const marks = await releases.ofClassrooms(db, sessionId, [77]);
    expect([...marks.pickedUp]).toEqual(riders.map((rider) => [rider.id, exitTime]));

    // A stale completion writes no marks either: the change and its marks are one.
    const stale = await queueCar(sessionId, '112', [
      { ...riders[0], id: 930_599 } as (typeof riders)[number],
    ]);
    await queue.update(db, stale, { status: 'ready', batchId: null, batchNumber: null }, rec);
    await expect(
      queue.complete(
        db,
        stale,
        rec,
        nextTime(),
        undefined,
        releases.pickUpItems(stale, [stale], rec, nextTime()),
      ),
    ).rejects.toThrow(/changed by someone else/);
    expect((await releases.ofClassrooms(db, sessionId, [77])).pickedUp.has(930_599)).toBe(false);

    const tooMany = Array.from(
      { length: PICKUPS_IN_COMPLETION + 1 },
      () => pickups[0] as Record<string, unknown>,
    );
    await expect(queue.complete(db, stale, rec, nextTime(), undefined, tooMany)).rejects.toThrow(/Too many/);
  });

  it('lists completed pickups newest first under their ids, without reading the active queue', async () => {
    const sessionId = 9304;
    const a = await queueCar(sessionId, '107');
    const b = await queueCar(sessionId, '108');
    await queueCar(sessionId, '109');
    await queue.complete(db, a, rec, nextTime());
    await queue.complete(db, b, rec, nextTime());
    expect((await queue.listCompleted(db, sessionId)).map((e) => e.id)).toEqual([b.id, a.id]);
    expect((await queue.listActive(db, sessionId)).map((e) => e.vehicleNumber)).toEqual(['109']);
  });

  it('places a new entry in its type line as the list does', async () => {
    const sessionId = 9305;
    await queueCar(sessionId, '1');
    const second = await queueCar(sessionId, '2');
    expect(await queue.positionOf(db, second)).toBe(2);
    const [first] = await queue.listActive(db, sessionId);
    await queue.remove(db, first as QueueEntry, rec);
    expect(await queue.positionOf(db, second)).toBe(1);
  });

  it('keeps an entry with four children under 1 KB, so queueing it costs one write unit and one for the index', () => {
    const child = (i: number): StudentSummary => ({
      id: 1_000_000 + i,
      firstName: 'Alexandria',
      lastName: 'Montgomery-Okafor',
      grade: 'K',
      classroomId: 100_000 + i,
    });
    const vehicle: Omit<Vehicle, 'studentIds' | 'schoolId'> = {
      id: 123_456,
      number: '123456789012',
      type: 'car',
      active: true,
      parentName: 'Jordan Montgomery-Okafor',
      parentPhone: '(555) 123-4567',
      alternateContactName: 'Avery Montgomery-Okafor',
      alternateContactPhone: '(555) 020-4567',
      make: 'Chevrolet',
      model: 'Model Y',
      color: 'Silver',
      licensePlate: 'CRB-1234',
      notes: null,
    };
    const time = '2030-01-01T15:00:00.000Z';
    const entry: QueueEntry = {
      id: `1234567-car-123456789012-${Date.parse(time)}-abc`,
      sessionId: 1_234_567,
      schoolId: 12_345,
      vehicleId: 123_456,
      vehicleNumber: '123456789012',
      vehicleType: 'car',
      batchId: null,
      batchNumber: null,
      status: 'waiting',
      position: null,
      entryTime: time,
      queueTime: time,
      exitTime: null,
      vehicle,
      students: [0, 1, 2, 3].map(child),
      version: 1,
    };
    const { position: _, ...stored } = entry;
    const item = { ...activeEntryKey(entry), ...waitingIndex(entry), entity: 'queueEntry', ...stored };
    expect(itemSize(item)).toBeLessThanOrEqual(1024);
  });
});

describe('the waiting line (add-to-batch)', () => {
  it('holds only waiting, batch-less entries of a type, in arrival order, a few at a time', async () => {
    const sessionId = 9311;
    const cars = [];
    for (const number of ['31', '32', '33', '34', '35']) cars.push(await queueCar(sessionId, number));
    await queue.add(
      db,
      {
        sessionId,
        schoolId: 1,
        vehicleId: null,
        vehicleNumber: '1',
        vehicleType: 'bus',
        entryTime: nextTime(),
        queueTime: nextTime(),
        vehicle: null,
        students: [],
      },
      rec,
    );
    const [c31, c32, c33, c34] = cars as [QueueEntry, QueueEntry, QueueEntry, QueueEntry];
    const batch = await newBatch(sessionId);
    expect(await batches.addEntry(db, batch, c31, rec)).toMatchObject({ status: 'loading' });
    await queue.update(db, c32, { status: 'overflow', batchId: null, batchNumber: null }, rec);
    await queue.update(db, c33, { status: 'ready', batchId: null, batchNumber: null }, rec);

    const first = await queue.waitingForBatch(db, sessionId, 'car', 1);
    expect(first.entries.map((e) => e.vehicleNumber)).toEqual(['34']);
    const rest = await queue.waitingForBatch(db, sessionId, 'car', 5, first.next);
    expect(rest.entries.map((e) => e.vehicleNumber)).toEqual(['35']);
    expect(
      (await queue.waitingForBatch(db, sessionId, 'bus', 5)).entries.map((e) => e.vehicleNumber),
    ).toEqual(['1']);

    // Back out of the batch: the car takes its arrival place in the line again.
    const inBatch = (await queue.get(db, c31.id)) as QueueEntry;
    await batches.removeEntry(db, batch.id, inBatch, 'waiting', rec);
    expect((await queue.waitingForBatch(db, sessionId, 'car', 5)).entries.map((e) => e.id)).toEqual([
      c31.id,
      c34.id,
      cars[4]?.id,
    ]);
  });
});

describe('batch members', () => {
  it('are read by key, as queued while loading and as completed pickups after, and always match the count', async () => {
    const sessionId = 9321;
    const batch = await newBatch(sessionId);
    const cars = [];
    for (const number of ['41', '42', '43']) cars.push(await queueCar(sessionId, number));
    await queueCar(sessionId, '44');
    for (const car of cars)
      expect(await batches.addEntry(db, batch, car, rec)).toMatchObject({ status: 'loading' });
    await batches.removeEntry(
      db,
      batch.id,
      (await queue.get(db, cars[1]!.id)) as QueueEntry,
      'overflow',
      rec,
    );

    const loading = (await batches.withMembers(db, batch.id))!;
    expect(loading.batch.currentCount).toBe(2);
    const members = await batches.entries(db, loading.batch, loading.memberIds);
    expect(members.map((e) => e.vehicleNumber)).toEqual(['41', '43']);
    expect(members.every((e) => e.batchId === batch.id)).toBe(true);

    expect(await batches.complete(db, loading.batch, members, nextTime(), rec)).toBe(true);
    const done = (await batches.withMembers(db, batch.id))!;
    expect(done.batch).toMatchObject({ status: 'completed', version: loading.batch.version + 1 });
    const pickups = await batches.entries(db, done.batch, done.memberIds);
    expect(pickups.map((e) => [e.id, e.status])).toEqual([
      [cars[0]!.id, 'completed'],
      [cars[2]!.id, 'completed'],
    ]);
  });

  it('refuse a completion from a stale read of the batch', async () => {
    const sessionId = 9322;
    const batch = await newBatch(sessionId);
    const car = await queueCar(sessionId, '45');
    expect(await batches.addEntry(db, batch, car, rec)).toMatchObject({ status: 'loading' });
    const seen = (await batches.withMembers(db, batch.id))!;
    const late = await queueCar(sessionId, '46');
    expect(await batches.addEntry(db, seen.batch, late, rec)).toMatchObject({ status: 'loading' });
    const entries = await batches.entries(db, seen.batch, seen.memberIds);
    expect(await batches.complete(db, seen.batch, entries, nextTime(), rec)).toBe(false);
  });
});

describe('students by classroom', () => {
  it('lists one classroom’s active students, and follows a move to another classroom', async () => {
    const schoolId = 9331;
    const make = (firstName: string, classroomId: number | null) =>
      students.create(db, { schoolId, firstName, lastName: 'Lee', grade: '2', classroomId });
    const ann = await make('Ann', 1);
    await make('Ben', 2);
    const cal = await make('Cal', 1);
    await make('Dee', null);
    const eve = await make('Eve', 1);
    await students.update(db, { ...eve, active: false });

    expect((await students.listByClassroom(db, schoolId, 1)).map((s) => s.firstName)).toEqual(['Ann', 'Cal']);
    expect((await students.listByClassroom(db, schoolId, 2)).map((s) => s.firstName)).toEqual(['Ben']);
    expect(await students.listByClassroom(db, schoolId, 3)).toEqual([]);

    await students.update(db, { ...cal, classroomId: 2 });
    expect((await students.listByClassroom(db, schoolId, 1)).map((s) => s.id)).toEqual([ann.id]);
    expect((await students.listByClassroom(db, schoolId, 2)).map((s) => s.firstName)).toEqual(['Ben', 'Cal']);
  });
});

describe('the event sequence', () => {
  it('numbers a session’s events 1, 2, 3 … on its own, under concurrent callers too', async () => {
    const numbers = await Promise.all(
      Array.from({ length: 20 }, () => eventSequence.next({ live: testConnectionsDb(), data: db }, 9341)),
    );
    expect([...numbers].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(await eventSequence.next({ live: testConnectionsDb(), data: db }, 9342)).toBe(1);
  });
});
