import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, type QueueEntry } from '@curbside/domain';
import { describe, expect, it } from 'vitest';
import { batches } from '../src/batch';
import type { Db } from '../src/db';
import { queue } from '../src/queue';
import { releases } from '../src/release';
import { db, rec } from './fixtures/db';

describe('queue entries and batches', () => {
  const queueCar = (sessionId: number, vehicleNumber: string) =>
    queue.add(
      db,
      {
        sessionId,
        schoolId: 1,
        vehicleId: null,
        vehicleNumber,
        vehicleType: 'car',
        entryTime: new Date().toISOString(),
        queueTime: new Date().toISOString(),
        vehicle: null,
        students: [],
      },
      rec,
    );

  it('refuses a change made from a batch-less read of a car another tablet has put into a batch', async () => {
    const sessionId = 9101;
    const seen = await queueCar(sessionId, '41');
    const batch = await batches.create(
      db,
      { sessionId, schoolId: 1, vehicleType: 'car', maxCapacity: 8 },
      rec,
    );
    expect(await batches.addEntry(db, batch, seen, rec)).toMatchObject({ status: 'loading' });

    await expect(queue.complete(db, seen, rec)).rejects.toThrow(ConflictError);
    await expect(
      queue.update(db, seen, { status: 'overflow', batchId: null, batchNumber: null }, rec),
    ).rejects.toThrow(ConflictError);
    await expect(queue.remove(db, seen, rec)).rejects.toThrow(ConflictError);

    const [entry] = await queue.listActive(db, sessionId);
    expect(entry).toMatchObject({ vehicleNumber: '41', batchId: batch.id, status: 'waiting' });
    const current = (await batches.get(db, batch.id))!;
    expect(current.currentCount).toBe(1);
    expect(await batches.complete(db, current, [entry as QueueEntry], new Date().toISOString(), rec)).toBe(
      true,
    );
  });

  it('finds a completed pickup by the id it was queued with, and a completed batch by its members', async () => {
    const sessionId = 9102;
    const queued = await queueCar(sessionId, '42');
    const walkUp = await queue.complete(db, queued, rec);
    expect(walkUp.id).toBe(queued.id);
    expect(await queue.get(db, queued.id)).toMatchObject({ status: 'completed', vehicleNumber: '42' });

    const batch = await batches.create(
      db,
      { sessionId, schoolId: 1, vehicleType: 'car', maxCapacity: 8 },
      rec,
    );
    await batches.addEntry(db, batch, await queueCar(sessionId, '43'), rec);
    const endTime = new Date(Date.now() + 1000).toISOString();
    const loaded = await batches.withMembers(db, batch.id);
    const members = await batches.entries(db, loaded!.batch, loaded!.memberIds);
    expect(await batches.complete(db, loaded!.batch, members, endTime, rec)).toBe(true);
    const done = await batches.withMembers(db, batch.id);
    expect((await batches.entries(db, done!.batch, done!.memberIds)).map((e) => e.vehicleNumber)).toEqual([
      '43',
    ]);
  });
});

describe('releases and pickups', () => {
  /**
   * The table as DynamoDB under load answers it: each BatchWriteItem writes
   * only its first `accepted` puts and hands the rest back unprocessed.
   */
  const throttled = (accepted: number) => {
    const calls: number[] = [];
    const doc = {
      send: async (command: unknown) => {
        if (!(command instanceof BatchWriteCommand)) return db.doc.send(command as never);
        const requests = command.input.RequestItems?.[db.table] ?? [];
        calls.push(requests.length);
        const now = requests.slice(0, accepted);
        if (now.length > 0) {
          await db.doc.send(new BatchWriteCommand({ RequestItems: { [db.table]: now } }));
        }
        const rest = requests.slice(accepted);
        return { UnprocessedItems: rest.length > 0 ? { [db.table]: rest } : {} };
      },
    };
    return { db: { table: db.table, doc: doc as unknown as Db['doc'] }, calls };
  };

  const inRoom = (classroomId: number | null) => (id: number) => ({
    id,
    classroomId,
    firstName: `First${id}`,
    lastName: `Last${id}`,
    grade: '3',
  });
  /** A completed visit carrying these students. */
  const car = (students: ReturnType<ReturnType<typeof inRoom>>[]) => [
    { id: `car-${students[0]?.id}`, vehicleNumber: '12', vehicleType: 'car' as const, students },
  ];
  const at = (sessionId: number) => ({ schoolId: 1, sessionId });

  it("answers a session's releases and pickups apart, one partition per classroom", async () => {
    const sessionId = 9201;
    await releases.release(db, at(sessionId), inRoom(7)(1), rec, '2030-01-01T15:00:00.000Z');
    await releases.pickUp(db, at(sessionId), car([1, 2].map(inRoom(7))), rec, '2030-01-01T15:05:00.000Z');
    await releases.pickUp(db, at(sessionId), car([3].map(inRoom(8))), rec, '2030-01-01T15:06:00.000Z');
    const { released, pickedUp } = await releases.ofClassrooms(db, sessionId, [7]);
    expect([...released]).toEqual([[1, '2030-01-01T15:00:00.000Z']]);
    expect([...pickedUp].sort()).toEqual([
      [1, '2030-01-01T15:05:00.000Z'],
      [2, '2030-01-01T15:05:00.000Z'],
    ]);
    expect([...(await releases.ofClassrooms(db, sessionId, [7, 8])).pickedUp.keys()].sort()).toEqual([
      1, 2, 3,
    ]);
    expect((await releases.ofClassrooms(db, 9299, [7])).pickedUp.size).toBe(0);
  });

  it('marks more than 25 students in chunks and sends unprocessed ones again', async () => {
    const sessionId = 9202;
    const ids = Array.from({ length: 30 }, (_, i) => i + 1);
    const flaky = throttled(10);
    await releases.pickUp(flaky.db, at(sessionId), car(ids.map(inRoom(null))), rec);
    // 25 then 5 per chunk; each try gets 10 through.
    expect(flaky.calls).toEqual([25, 15, 5, 5]);
    const { pickedUp } = await releases.ofClassrooms(db, sessionId, [null]);
    expect([...pickedUp.keys()].sort((a, b) => a - b)).toEqual(ids);
  });

  it('fails when DynamoDB keeps items unprocessed after a few tries', async () => {
    const flaky = throttled(0);
    await expect(releases.pickUp(flaky.db, at(9203), car([1, 2].map(inRoom(1))), rec)).rejects.toThrow(
      /unprocessed/,
    );
    expect(flaky.calls).toEqual([2, 2, 2, 2, 2]);
  });
});
