import { describe, expect, it } from 'vitest';
import { activeQueue, back, carLineServer, front, newBatch, sessionId } from '../support/car-line';

/**
 * A queue entry is one visit of a car: the id it is given when the car is
 * queued names that visit through batching, overflow and completion, and is
 * never given again. A tablet holding an old id can never change a later
 * visit of the same car.
 */
carLineServer();

const add = async (vehicleNumber: string, vehicleType = 'car') => {
  const answer = await front.post('/api/queue', { sessionId, vehicleNumber, vehicleType });
  expect(answer.status).toBe(201);
  return answer.body;
};
const completed = async () =>
  (await front.get(`/api/queue?sessionId=${sessionId}&status=completed`)).body as any[];

describe('a queue entry keeps its id', () => {
  it('through batching, overflow, back to the queue, and completion with its batch', async () => {
    const entry = await add('104');
    const batch = await newBatch();
    expect((await back.post(`/api/batches/${batch.id}/vehicles`)).status).toBe(200);
    expect((await activeQueue()).map((e) => e.id)).toEqual([entry.id]);
    const overflow = await back.put(`/api/queue/${entry.id}`, { batchId: null, status: 'overflow' });
    expect(overflow.body).toMatchObject({ id: entry.id, status: 'overflow' });
    const waiting = await back.put(`/api/queue/${entry.id}`, { batchId: null, status: 'waiting' });
    expect(waiting.body).toMatchObject({ id: entry.id, status: 'waiting' });
    expect((await back.post(`/api/batches/${batch.id}/vehicles`)).status).toBe(200);
    const inBatch = (await back.get(`/api/batches/${batch.id}/vehicles`)).body;
    expect(inBatch.map((e: any) => e.id)).toEqual([entry.id]);

    expect(
      (await back.put(`/api/batches/${batch.id}`, { status: 'completed', confirmUnreleased: true })).status,
    ).toBe(200);
    const [pickup] = await completed();
    expect(pickup).toMatchObject({ id: entry.id, status: 'completed', vehicleNumber: '104' });
    expect((await back.get(`/api/batches/${batch.id}/vehicles`)).body.map((e: any) => e.id)).toEqual([
      entry.id,
    ]);
  });

  it('through a walk-up completion: the answer and the completed list carry the id it was queued with', async () => {
    const entry = await add('105');
    const done = await front.put(`/api/queue/${entry.id}/status`, {
      status: 'completed',
      confirmUnreleased: true,
    });
    expect(done.body).toMatchObject({ id: entry.id, status: 'completed', exitTime: expect.any(String) });
    expect((await completed()).map((e) => e.id)).toEqual([entry.id]);
  });

  it('lists completed pickups newest first under the ids they had while queued', async () => {
    const ids: string[] = [];
    for (const number of ['106', '107', '108']) {
      const entry = await add(number);
      await front.put(`/api/queue/${entry.id}/status`, { status: 'completed', confirmUnreleased: true });
      ids.push(entry.id);
    }
    expect((await completed()).map((e) => e.id)).toEqual([...ids].reverse());
  });
});

describe('a car queued again', () => {
  it('gets a new id; a stale write on the old one is 409, says what happened and changes nothing', async () => {
    const first = await add('104');
    await front.put(`/api/queue/${first.id}/status`, { status: 'completed', confirmUnreleased: true });
    const second = await add('104');
    expect(second.id).not.toBe(first.id);
    expect(second.vehicleNumber).toBe('104');

    // A tablet that still shows the first visit.
    const stale = [
      await back.put(`/api/queue/${first.id}/status`, { status: 'overflow' }),
      await back.put(`/api/queue/${first.id}`, { batchId: null, status: 'overflow' }),
      await back.request('DELETE', `/api/queue/${first.id}`),
    ];
    for (const answer of stale) {
      expect(answer.status).toBe(409);
      expect(answer.body).toEqual({ message: 'Vehicle 104 was already picked up' });
    }
    const batch = await newBatch();
    const placed = await back.put(`/api/queue/${first.id}`, { batchId: batch.id, status: 'waiting' });
    expect(placed.status).toBe(409);

    const [now] = await activeQueue();
    expect(now).toMatchObject({ id: second.id, status: 'waiting', batchId: null, version: second.version });
    expect((await back.get(`/api/batches/active?sessionId=${sessionId}`)).body[0].currentCount).toBe(0);
  });

  it('after a removal: the old id is "already removed" and the new visit stays', async () => {
    const first = await add('109');
    expect((await front.request('DELETE', `/api/queue/${first.id}`)).status).toBe(200);
    const second = await add('109');
    const stale = await back.put(`/api/queue/${first.id}/status`, {
      status: 'completed',
      confirmUnreleased: true,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe('Vehicle 109 was already removed from the queue');
    expect((await activeQueue()).map((e) => [e.id, e.status])).toEqual([[second.id, 'waiting']]);
    expect(await completed()).toEqual([]);
  });
});

describe('POST /api/queue', () => {
  it('answers the entry with its dense position in its type, as the list shows it', async () => {
    expect((await add('201')).position).toBe(1);
    expect((await add('1', 'bus')).position).toBe(1);
    const third = await add('202');
    expect(third.position).toBe(2);
    const gone = (await activeQueue()).find((e) => e.vehicleNumber === '201');
    await front.request('DELETE', `/api/queue/${gone.id}`);
    const fourth = await add('203');
    expect(fourth.position).toBe(2);
    expect((await activeQueue()).find((e) => e.id === fourth.id).position).toBe(2);
  });
});

describe('dismissing an overflow car', () => {
  it('by two staff at once is one 2xx and one 409 "already removed"', async () => {
    const entry = await add('110');
    await back.put(`/api/queue/${entry.id}/status`, { status: 'overflow' });
    const answers = await Promise.all([
      front.request('DELETE', `/api/queue/${entry.id}`),
      back.request('DELETE', `/api/queue/${entry.id}`),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)?.body).toEqual({
      message: 'Vehicle 110 was already removed from the queue',
    });
    expect(await activeQueue()).toEqual([]);
  });

  it('answers 404 only for ids that never named a visit', async () => {
    await add('111');
    for (const id of [`${sessionId}-car-111-1700000000000-zzz`, `${sessionId}-car-111`, 'nonsense']) {
      const answer = await front.request('DELETE', `/api/queue/${encodeURIComponent(id)}`);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ message: 'Queue entry not found' });
    }
    expect(await activeQueue()).toHaveLength(1);
  });
});
