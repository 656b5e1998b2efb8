import { meter } from '@curbside/store';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { activeQueue, startFreshSession } from '../support/car-line';
import { type Client, signedIn, startTestServer } from '../support/server';

/**
 * One tap on New Car Batch (issue 13): the new batch takes the next waiting,
 * batch-less vehicles of its type up to capacity in the same call, in one
 * transaction; Add to batch stays for topping up.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let back: Client;
let sessionId: number;
beforeAll(async () => {
  process.env.CURBSIDE_METER = '1';
  server = await startTestServer();
  back = await signedIn(server.url, 'back_demo');
});
afterAll(async () => {
  await server?.close();
  delete process.env.CURBSIDE_METER;
});
beforeEach(async () => {
  sessionId = await startFreshSession(back);
});

const queue = async (vehicleType: 'car' | 'bus', ...numbers: string[]) => {
  for (const vehicleNumber of numbers) {
    await back.post('/api/queue', { sessionId, vehicleNumber, vehicleType });
  }
};
const tenCars = () => queue('car', ...Array.from({ length: 10 }, (_, i) => String(201 + i)));
const fill = (vehicleType: 'car' | 'bus' = 'car') =>
  back.post('/api/batches', { sessionId, vehicleType, fill: true });

describe('New Car Batch with fill', () => {
  it('makes a batch of 8 from 10 waiting cars in one transaction, the first 8 in arrival order', async () => {
    await queue('bus', '3');
    await tenCars();
    meter.reset();
    const made = await fill();
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ batchNumber: 1, currentCount: 8, maxCapacity: 8, status: 'loading' });
    const writes = meter.snapshot()['http/createBatch'] ?? {};
    expect(writes['ddb.TransactWriteItems.calls']).toBe(1);

    const inBatch = (await back.get(`/api/batches/${made.body.id}/vehicles`)).body as any[];
    expect(inBatch.map((e) => e.vehicleNumber)).toEqual([
      '201',
      '202',
      '203',
      '204',
      '205',
      '206',
      '207',
      '208',
    ]);
    const left = (await activeQueue(back, sessionId)).filter((e) => e.batchId === null);
    expect(left.map((e) => `${e.vehicleType} ${e.vehicleNumber}`)).toEqual(['bus 3', 'car 209', 'car 210']);
    // Add to batch still tops up a batch with room: a second batch takes the rest one by one.
    const second = (await back.post('/api/batches', { sessionId, vehicleType: 'car' })).body;
    expect(second.currentCount).toBe(0);
    expect((await back.post(`/api/batches/${second.id}/vehicles`)).body.currentCount).toBe(1);
  });

  it('makes an empty batch when nothing of its type waits', async () => {
    await queue('bus', '3');
    const made = await fill('car');
    expect(made.status).toBe(201);
    expect(made.body.currentCount).toBe(0);
  });

  it('never puts a car in two batches when two tablets tap at once', async () => {
    await tenCars();
    const [a, b] = await Promise.all([fill(), fill()]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect([a.body.currentCount, b.body.currentCount].sort()).toEqual([2, 8]);
    const members = await Promise.all(
      [a.body.id, b.body.id].map(async (id) => (await back.get(`/api/batches/${id}/vehicles`)).body as any[]),
    );
    const ids = members.flat().map((e) => e.id);
    expect(new Set(ids).size).toBe(10);
    expect(members.map((list) => list.length).sort()).toEqual([2, 8]);
  });
});
