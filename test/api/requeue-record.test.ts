import { DeleteItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { vehicles } from '@curbside/store';
import { beforeAll, describe, expect, it } from 'vitest';
import { back, carLineServer, front, server, sessionId } from '../support/car-line';
import { type Client, signedIn } from '../support/server';
import { newVehicle } from '../support/vehicles';

/**
 * The record's `vehicle_requeued` (the spec's "queued again"): a vehicle's visit is recorded as
 * requeued exactly when an earlier visit of it ended in the session, however it ended (a pickup,
 * a removal, a car that left, a batch's completion, a batched car taken out or picked up on its
 * own), and as `vehicle_queued` on its first visit. Since h54zb (ADR 0027) the add reads a marker
 * every visit's end writes, by key beside the sign-in; a session begun before the markers were
 * written finds its earlier visits by Query as before.
 */
carLineServer();

let admin: Client;
beforeAll(async () => {
  admin = await signedIn(server.url, 'admin_demo');
});

let numbers = 0;
/** A number of its own for each vehicle (the session is fresh for each test). */
const aNumber = () => `RQ${numbers++}`;

const queue = async (vehicleNumber: string, vehicleType: 'car' | 'bus' = 'car') => {
  const answer = await front.post('/api/queue', { sessionId, vehicleNumber, vehicleType });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as { id: string };
};
const remove = async (id: string, body: Record<string, unknown>) => {
  const answer = await back.request('DELETE', `/api/queue/${encodeURIComponent(id)}`, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
};
const pickUp = async (id: string) => {
  const answer = await back.put(`/api/queue/${encodeURIComponent(id)}/status`, {
    status: 'completed',
    confirmUnreleased: true,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
};
const undo = async (id: string) => {
  const answer = await back.post(`/api/queue/${encodeURIComponent(id)}/restore`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
};
/** A new batch of cars with the waiting cars in it (in their order), as the back queue fills one. */
const batchOf = async (count: number) => {
  const batch = (await back.post('/api/batches', { sessionId, vehicleType: 'car' })).body as { id: number };
  for (let i = 0; i < count; i++) {
    const added = await back.post(`/api/batches/${batch.id}/vehicles`);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
  }
  return batch.id;
};

/** How the record names each visit's arrival, by visit id (the session's raw record). */
const arrivals = async (): Promise<Record<string, string>> => {
  const answer = await admin.get(`/api/sessions/${sessionId}/events`);
  expect(answer.status).toBe(200);
  const kinds: Record<string, string> = {};
  for (const event of answer.body.items as Array<{ kind: string; entries: Array<{ id: string }> }>) {
    if (event.kind === 'vehicle_queued' || event.kind === 'vehicle_requeued') {
      for (const entry of event.entries) kinds[entry.id] = event.kind;
    }
  }
  return kinds;
};

/** Queues a vehicle, ends its visit with `end`, queues it again: the record's kind of each arrival. */
const backAfter = async (end: (id: string) => Promise<void>, type: 'car' | 'bus' = 'car') => {
  const number = aNumber();
  const first = await queue(number, type);
  await end(first.id);
  const again = await queue(number, type);
  const kinds = await arrivals();
  return [kinds[first.id], kinds[again.id]];
};

describe("the record's requeue", () => {
  it('a first visit is queued; a car back after its pickup, its removal or leaving is requeued', async () => {
    expect(await backAfter(pickUp)).toEqual(['vehicle_queued', 'vehicle_requeued']);
    expect(await backAfter((id) => remove(id, { reason: 'removed' }))).toEqual([
      'vehicle_queued',
      'vehicle_requeued',
    ]);
    expect(await backAfter((id) => remove(id, { reason: 'left' }))).toEqual([
      'vehicle_queued',
      'vehicle_requeued',
    ]);
    expect(await backAfter((id) => remove(id, { reason: 'picked_up', confirmUnreleased: true }))).toEqual([
      'vehicle_queued',
      'vehicle_requeued',
    ]);
    // Another car's visits say nothing of this one: queued on its first visit.
    const fresh = await queue(aNumber());
    expect((await arrivals())[fresh.id]).toBe('vehicle_queued');
  });

  it('a bus back after its pickup is requeued', async () => {
    const number = aNumber();
    await vehicles.create(server.db, newVehicle(1, number, 'bus'));
    const first = await queue(number, 'bus');
    await pickUp(first.id);
    const again = await queue(number, 'bus');
    const kinds = await arrivals();
    expect([kinds[first.id], kinds[again.id]]).toEqual(['vehicle_queued', 'vehicle_requeued']);
  });

  it("a car back after its batch's completion, or taken out of its batch, is requeued", async () => {
    const [inBatch, takenOut, pickedAlone] = [aNumber(), aNumber(), aNumber()];
    const firsts = [await queue(inBatch), await queue(takenOut), await queue(pickedAlone)];
    const batchId = await batchOf(3);
    const members = (await back.get(`/api/batches/${batchId}/vehicles`)).body as Array<{ id: string }>;
    expect(members.map((entry) => entry.id)).toEqual(firsts.map((entry) => entry.id));
    await remove(firsts[1]?.id as string, { reason: 'removed' });
    await remove(firsts[2]?.id as string, { reason: 'picked_up', confirmUnreleased: true });
    const done = await back.put(`/api/batches/${batchId}`, { status: 'completed', confirmUnreleased: true });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const agains = [await queue(inBatch), await queue(takenOut), await queue(pickedAlone)];
    const kinds = await arrivals();
    expect(firsts.map((entry) => kinds[entry.id])).toEqual(Array(3).fill('vehicle_queued'));
    expect(agains.map((entry) => kinds[entry.id])).toEqual(Array(3).fill('vehicle_requeued'));
  });

  it('a batch of 30 cars, its markers written right after its completion: each car back is requeued', async () => {
    const settings = (await admin.get('/api/schools/1/settings')).body;
    const saved = await admin.put('/api/schools/1/settings', { ...settings, carBatchCapacity: 30 });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    try {
      const numbers = Array.from({ length: 30 }, aNumber);
      const firsts = [];
      for (const number of numbers) firsts.push(await queue(number));
      const batchId = await batchOf(30);
      const done = await back.put(`/api/batches/${batchId}`, {
        status: 'completed',
        confirmUnreleased: true,
      });
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect(done.body.currentCount).toBe(30);
      const agains = [];
      for (const number of numbers) agains.push(await queue(number));
      const kinds = await arrivals();
      expect(agains.map((entry) => kinds[entry.id])).toEqual(Array(30).fill('vehicle_requeued'));
      expect(firsts.map((entry) => kinds[entry.id])).toEqual(Array(30).fill('vehicle_queued'));
    } finally {
      expect((await admin.put('/api/schools/1/settings', settings)).status).toBe(200);
    }
  }, 120_000);

  it('a visit brought back by Undo, then picked up: the car back is requeued', async () => {
    const number = aNumber();
    const first = await queue(number);
    await remove(first.id, { reason: 'removed' });
    await undo(first.id);
    // Back in the line: the same visit, not queued again.
    expect(
      (await front.post('/api/queue', { sessionId, vehicleNumber: number, vehicleType: 'car' })).status,
    ).toBe(409);
    await pickUp(first.id);
    await undo(first.id);
    await pickUp(first.id);
    const again = await queue(number);
    const kinds = await arrivals();
    expect([kinds[first.id], kinds[again.id]]).toEqual(['vehicle_queued', 'vehicle_requeued']);
  });

  it('a session begun before the markers finds its earlier visits by Query', async () => {
    // As a session started by the code before h54zb is stored: without `visitsMarked`.
    await server.db.doc.send(
      new UpdateItemCommand({
        TableName: server.db.table,
        Key: { pk: { S: `SESSION#${sessionId}` }, sk: { S: 'SESSION' } },
        UpdateExpression: 'REMOVE visitsMarked',
      }),
    );
    const number = aNumber();
    const first = await queue(number);
    await pickUp(first.id);
    // The pickup as the code before wrote it: no marker.
    await server.db.doc.send(
      new DeleteItemCommand({
        TableName: server.db.table,
        Key: { pk: { S: `QUEUE#${sessionId}` }, sk: { S: `VISITED#car#${number}` } },
      }),
    );
    const again = await queue(number);
    const fresh = await queue(aNumber());
    const kinds = await arrivals();
    expect([kinds[first.id], kinds[again.id], kinds[fresh.id]]).toEqual([
      'vehicle_queued',
      'vehicle_requeued',
      'vehicle_queued',
    ]);
  });
});
