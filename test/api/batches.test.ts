import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFreshSession } from '../support/car-line';
import { type Client, signedIn, startTestServer } from '../support/server';

let server: Awaited<ReturnType<typeof startTestServer>>;
let back: Client;
let sessionId: number;
beforeAll(async () => {
  server = await startTestServer();
  back = await signedIn(server.url, 'back_demo');
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  // A fresh session per test: each starts with an empty queue and batch #1.
  sessionId = await startFreshSession(back);
});

const queueCars = async (...numbers: string[]) => {
  for (const vehicleNumber of numbers) {
    await back.post('/api/queue', { sessionId, vehicleNumber, vehicleType: 'car' });
  }
};
const entries = async () => (await back.get(`/api/queue?sessionId=${sessionId}`)).body as any[];
const newBatch = async (vehicleType = 'car') =>
  (await back.post('/api/batches', { sessionId, vehicleType })).body as any;

describe('batches', () => {
  it('creates loading batches numbered from 1 per session, with the school capacity per type', async () => {
    const first = await back.post('/api/batches', { sessionId, vehicleType: 'car' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      id: expect.any(Number),
      batchNumber: 1,
      vehicleType: 'car',
      status: 'loading',
      currentCount: 0,
      maxCapacity: 8,
      endTime: null,
    });
    expect(Date.parse(first.body.startTime)).toBeGreaterThan(Date.now() - 10_000);
    const bus = await newBatch('bus');
    expect(bus).toMatchObject({ batchNumber: 2, maxCapacity: 4 });
    const active = (await back.get(`/api/batches/active?sessionId=${sessionId}`)).body;
    expect(active.map((b: any) => b.batchNumber)).toEqual([1, 2]);
  });

  it('adds the first waiting, batch-less vehicle of its type and raises the count', async () => {
    await back.post('/api/queue', { sessionId, vehicleNumber: '1', vehicleType: 'bus' });
    await queueCars('101', '102');
    const batch = await newBatch();
    const added = await back.post(`/api/batches/${batch.id}/vehicles`);
    expect(added.status).toBe(200);
    expect(added.body.currentCount).toBe(1);
    const inBatch = (await back.get(`/api/batches/${batch.id}/vehicles`)).body;
    expect(inBatch.map((e: any) => e.vehicleNumber)).toEqual(['101']);
    expect(inBatch[0]).toMatchObject({ batchId: batch.id, batchNumber: 1, status: 'waiting' });
    expect(inBatch[0].students.length).toBeGreaterThan(0);
    await back.post(`/api/batches/${batch.id}/vehicles`);
    const none = await back.post(`/api/batches/${batch.id}/vehicles`);
    expect(none.status).toBe(409);
    expect(none.body.message).toBe('No waiting cars to add to Batch #1');
  });

  it('moves a vehicle back to the queue or to overflow, clearing its batch and lowering the count', async () => {
    await queueCars('103', '104');
    const batch = await newBatch();
    await back.post(`/api/batches/${batch.id}/vehicles`);
    await back.post(`/api/batches/${batch.id}/vehicles`);
    const [a, b] = await entries();
    const toQueue = await back.put(`/api/queue/${a.id}`, { batchId: null, status: 'waiting' });
    expect(toQueue.body).toMatchObject({ status: 'waiting', batchId: null, batchNumber: null });
    const toOverflow = await back.put(`/api/queue/${b.id}`, { batchId: null, status: 'overflow' });
    expect(toOverflow.body).toMatchObject({ status: 'overflow', batchId: null });
    expect((await back.get(`/api/batches/active?sessionId=${sessionId}`)).body[0].currentCount).toBe(0);
    // A chosen waiting entry can be put into a batch directly.
    const placed = await back.put(`/api/queue/${a.id}`, { batchId: batch.id, status: 'waiting' });
    expect(placed.body).toMatchObject({ batchId: batch.id, batchNumber: 1 });
    // An overflow entry is not waiting for a batch; it can be dismissed.
    const refused = await back.put(`/api/queue/${b.id}`, { batchId: batch.id, status: 'waiting' });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Vehicle 104 is not waiting for a batch');
    expect((await back.request('DELETE', `/api/queue/${b.id}`)).status).toBe(200);
  });

  it('refuses a vehicle of the other type and a vehicle already in a batch', async () => {
    await back.post('/api/queue', { sessionId, vehicleNumber: '2', vehicleType: 'bus' });
    await queueCars('105');
    const cars = await newBatch();
    const [bus, car] = await entries();
    const wrongType = await back.put(`/api/queue/${bus.id}`, { batchId: cars.id, status: 'waiting' });
    expect(wrongType.status).toBe(409);
    expect(wrongType.body.message).toBe('Batch #1 is for cars');
    await back.put(`/api/queue/${car.id}`, { batchId: cars.id, status: 'waiting' });
    const second = await newBatch();
    const twice = await back.put(`/api/queue/${car.id}`, { batchId: second.id, status: 'waiting' });
    expect(twice.status).toBe(409);
  });

  it('completes a batch: its vehicles become Recent Pickups and the batch cannot change any more', async () => {
    await queueCars('106', '107', '108');
    const batch = await newBatch();
    await back.post(`/api/batches/${batch.id}/vehicles`);
    await back.post(`/api/batches/${batch.id}/vehicles`);
    const done = await back.put(`/api/batches/${batch.id}`, {
      status: 'completed',
      confirmUnreleased: true,
      endTime: new Date().toISOString(),
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'completed', currentCount: 2, endTime: expect.any(String) });
    expect((await entries()).map((e) => e.vehicleNumber)).toEqual(['108']);
    const recent = (await back.get(`/api/queue?sessionId=${sessionId}&status=completed`)).body;
    expect(recent.map((e: any) => e.vehicleNumber).sort()).toEqual(['106', '107']);
    expect(recent.every((e: any) => e.status === 'completed' && e.exitTime)).toBe(true);
    const completed = (await back.get(`/api/batches?sessionId=${sessionId}&status=completed`)).body;
    expect(completed.map((b: any) => b.id)).toEqual([batch.id]);
    expect((await back.get(`/api/batches/${batch.id}/vehicles`)).body).toHaveLength(2);

    const again = await back.put(`/api/batches/${batch.id}`, {
      status: 'completed',
      confirmUnreleased: true,
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Batch #1 is completed and cannot be changed');
    const add = await back.post(`/api/batches/${batch.id}/vehicles`);
    expect(add.status).toBe(409);
    const count = await back.put(`/api/batches/${batch.id}`, { currentCount: 5 });
    expect(count.status).toBe(409);
  });

  it('keeps the count from the entries whatever count the client sends', async () => {
    await queueCars('109');
    const batch = await newBatch();
    await back.post(`/api/batches/${batch.id}/vehicles`);
    const answer = await back.put(`/api/batches/${batch.id}`, { currentCount: 7 });
    expect(answer.status).toBe(200);
    expect(answer.body.currentCount).toBe(1);
    const negative = await back.put(`/api/batches/${batch.id}`, { currentCount: -1 });
    expect(negative.status).toBe(400);
  });

  it('keeps the batch count right when a batched vehicle is removed or picked up on its own', async () => {
    await queueCars('110', '111');
    const batch = await newBatch();
    await back.post(`/api/batches/${batch.id}/vehicles`);
    await back.post(`/api/batches/${batch.id}/vehicles`);
    const [a, b] = await entries();
    await back.request('DELETE', `/api/queue/${a.id}`);
    await back.put(`/api/queue/${b.id}/status`, { status: 'completed', confirmUnreleased: true });
    expect((await back.get(`/api/batches/active?sessionId=${sessionId}`)).body[0].currentCount).toBe(0);
  });

  it('puts exactly 8 of 12 waiting cars into a batch of 8 under 12 simultaneous add-to-batch requests', async () => {
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        back.post('/api/queue', { sessionId, vehicleNumber: String(300 + i), vehicleType: 'car' }),
      ),
    );
    const batch = await newBatch();
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => back.post(`/api/batches/${batch.id}/vehicles`)),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(8);
    const refused = answers.filter((a) => a.status === 409);
    expect(refused).toHaveLength(4);
    expect(refused[0]?.body.message).toBe('Batch #1 is full');
    const [current] = (await back.get(`/api/batches/active?sessionId=${sessionId}`)).body;
    expect(current.currentCount).toBe(8);
    const all = await entries();
    expect(all.filter((e) => e.batchId === batch.id)).toHaveLength(8);
    expect(all.filter((e) => e.batchId === null && e.status === 'waiting')).toHaveLength(4);
  });

  it('completes a batch once when two staff complete it at the same time', async () => {
    await queueCars('120', '121', '122');
    const batch = await newBatch();
    for (let i = 0; i < 3; i++) await back.post(`/api/batches/${batch.id}/vehicles`);
    const other = await signedIn(server.url, 'front_demo');
    const answers = await Promise.all([
      back.put(`/api/batches/${batch.id}`, { status: 'completed', confirmUnreleased: true }),
      other.put(`/api/batches/${batch.id}`, { status: 'completed', confirmUnreleased: true }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const recent = (await back.get(`/api/queue?sessionId=${sessionId}&status=completed`)).body;
    expect(recent).toHaveLength(3);
  });
});
