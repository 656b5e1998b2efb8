import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeQueue } from '../support/car-line';
import { createSchoolWithStaff, sessionBody } from '../support/fixtures';
import { type Client, signedIn, startTestServer } from '../support/server';

let server: Awaited<ReturnType<typeof startTestServer>>;
let front: Client;
let sessionId: number;
beforeAll(async () => {
  server = await startTestServer();
  front = await signedIn(server.url, 'front_demo');
  sessionId = (await front.post('/api/sessions', sessionBody())).body.id;
});
afterAll(async () => {
  await server?.close();
});

const add = (client: Client, vehicleNumber: string, vehicleType = 'car') =>
  client.post('/api/queue', { sessionId, vehicleNumber, vehicleType });
const clear = async () => {
  for (const entry of await activeQueue(front, sessionId))
    await front.request('DELETE', `/api/queue/${entry.id}`);
};

describe('the queue', () => {
  it('queues a registered car with its vehicle details and students', async () => {
    const answer = await add(front, '101');
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      sessionId,
      vehicleNumber: '101',
      vehicleType: 'car',
      status: 'waiting',
      batchId: null,
      exitTime: null,
      vehicle: { number: '101', make: 'Toyota', model: 'Sienna', color: 'Silver' },
    });
    expect(answer.body.vehicle.parentName).toMatch(/^Jordan /);
    expect(answer.body.students.length).toBeGreaterThanOrEqual(1);
    expect(answer.body.students[0]).toMatchObject({ firstName: 'Ava', lastName: 'Martinez' });
    await clear();
  });

  it('queues an unregistered number with no vehicle details', async () => {
    const answer = await add(front, '9999');
    expect(answer.status).toBe(201);
    expect(answer.body.vehicle).toBeNull();
    expect(answer.body.students).toEqual([]);
    await clear();
  });

  it('refuses the same vehicle twice in one session with 409', async () => {
    await add(front, '102');
    const again = await add(front, '102');
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'Vehicle 102 is already in the queue' });
    await clear();
  });

  it('lets a car and a bus share a number', async () => {
    expect((await add(front, '3', 'car')).status).toBe(201);
    expect((await add(front, '3', 'bus')).status).toBe(201);
    await clear();
  });

  it('answers the add-vehicle form messages', async () => {
    const empty = await front.post('/api/queue', { sessionId, vehicleNumber: '  ', vehicleType: 'car' });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Vehicle number is required');
    const badType = await front.post('/api/queue', { sessionId, vehicleNumber: '5', vehicleType: 'boat' });
    expect(badType.status).toBe(400);
    expect(badType.body.message).toBe('Vehicle type must be car or bus');
    const defaulted = await front.post('/api/queue', { sessionId, vehicleNumber: '7' });
    expect(defaulted.body.vehicleType).toBe('car');
    await clear();
  });

  it('lists entries in arrival order with positions per type, and completed pickups newest first', async () => {
    await add(front, '110');
    await add(front, '1', 'bus');
    await add(front, '111');
    const list = await activeQueue(front, sessionId);
    expect(list.map((e) => [e.vehicleNumber, e.vehicleType, e.position])).toEqual([
      ['110', 'car', 1],
      ['1', 'bus', 1],
      ['111', 'car', 2],
    ]);
    const first = await front.put(`/api/queue/${list[0].id}/status`, {
      status: 'completed',
      confirmUnreleased: true,
    });
    expect(first.status).toBe(200);
    expect(first.body.exitTime).toEqual(expect.any(String));
    await front.put(`/api/queue/${list[2].id}/status`, { status: 'completed', confirmUnreleased: true });
    const done = (await front.get(`/api/queue?sessionId=${sessionId}&status=completed`)).body;
    expect(done.slice(0, 2).map((e: any) => e.vehicleNumber)).toEqual(['111', '110']);
    expect(done[0].status).toBe('completed');
    const remaining = await activeQueue(front, sessionId);
    expect(remaining.map((e) => [e.vehicleNumber, e.position])).toEqual([['1', 1]]);
    // A car that was picked up can come back later in the same session.
    expect((await add(front, '110')).status).toBe(201);
    await clear();
  });

  it('allows the specified status changes and refuses the others', async () => {
    const entry = (await add(front, '120')).body;
    expect((await front.put(`/api/queue/${entry.id}/status`, { status: 'overflow' })).body.status).toBe(
      'overflow',
    );
    const back = await front.put(`/api/queue/${entry.id}`, { batchId: null, status: 'waiting' });
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ status: 'waiting', batchId: null });
    const toOverflow = await front.put(`/api/queue/${entry.id}`, { batchId: null, status: 'overflow' });
    expect(toOverflow.body.status).toBe('overflow');
    const toReady = await front.put(`/api/queue/${entry.id}/status`, { status: 'ready' });
    expect(toReady.status).toBe(409);
    expect(toReady.body.message).toBe('Vehicle 120 cannot go from overflow to ready');
    const done = await front.put(`/api/queue/${entry.id}/status`, {
      status: 'completed',
      confirmUnreleased: true,
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ id: entry.id, status: 'completed', vehicleNumber: '120' });
    // Every later change to the picked-up visit says what happened to it.
    const again = await front.put(`/api/queue/${entry.id}/status`, { status: 'waiting' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Vehicle 120 was already picked up');
    const outAgain = await front.put(`/api/queue/${entry.id}`, { batchId: null, status: 'overflow' });
    expect(outAgain.status).toBe(409);
    const removeDone = await front.request('DELETE', `/api/queue/${entry.id}`);
    expect(removeDone.status).toBe(409);
    expect(removeDone.body.message).toBe('Vehicle 120 was already picked up');
    const bad = await front.put(`/api/queue/${entry.id}/status`, { status: 'flying' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Status must be waiting, ready, overflow or completed');
    const other = (await add(front, '121')).body;
    const unknownBatch = await front.put(`/api/queue/${other.id}`, { batchId: 42, status: 'waiting' });
    expect(unknownBatch.status).toBe(404);
    expect(unknownBatch.body.message).toBe('Batch not found');
    await clear();
  });

  it('removes a vehicle; a second removal says it was already removed, and an id never given is 404', async () => {
    const entry = (await add(front, '122')).body;
    expect((await front.request('DELETE', `/api/queue/${entry.id}`)).status).toBe(200);
    const again = await front.request('DELETE', `/api/queue/${entry.id}`);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'Vehicle 122 was already removed from the queue' });
    const never = await front.request('DELETE', `/api/queue/${sessionId}-car-122-1700000000000-abc`);
    expect(never.status).toBe(404);
    expect(never.body).toEqual({ message: 'Queue entry not found' });
    expect((await front.request('DELETE', '/api/queue/not-an-id')).status).toBe(404);
  });

  it('gives one entry and 19 conflicts for 20 simultaneous adds of the same car', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => add(front, '130')));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    const conflicts = answers.filter((a) => a.status === 409);
    expect(conflicts).toHaveLength(19);
    expect(conflicts[0]?.body.message).toBe('Vehicle 130 is already in the queue');
    expect((await activeQueue(front, sessionId)).filter((e) => e.vehicleNumber === '130')).toHaveLength(1);
    await clear();
  });

  it('numbers 50 simultaneous adds 1..50 with no gap or repeat, and stays dense after removals', async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => add(front, String(2000 + i))));
    expect(answers.every((a) => a.status === 201)).toBe(true);
    const list = await activeQueue(front, sessionId);
    expect(list.map((e) => e.position)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    await Promise.all(list.slice(10, 20).map((e) => front.request('DELETE', `/api/queue/${e.id}`)));
    expect((await activeQueue(front, sessionId)).map((e) => e.position)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
    await clear();
  });

  it("keeps another school's queue out of reach", async () => {
    await createSchoolWithStaff(server.db, 'maple');
    const maple = await signedIn(server.url, 'maple_front_queue_wrangler');
    const entry = (await add(front, '140')).body;
    expect((await maple.get(`/api/queue?sessionId=${sessionId}`)).status).toBe(404);
    expect(
      (await maple.post('/api/queue', { sessionId, vehicleNumber: '1', vehicleType: 'car' })).status,
    ).toBe(404);
    expect((await maple.request('DELETE', `/api/queue/${entry.id}`)).status).toBe(404);
    expect((await maple.get('/api/vehicles')).body).toEqual({ items: [], next: null });
    await clear();
  });

  it('lists the school vehicles', async () => {
    const list = (await front.get('/api/vehicles?limit=100')).body.items;
    expect(list.filter((v: any) => v.type === 'bus')).toHaveLength(5);
    expect(list.filter((v: any) => v.type === 'car').length).toBeGreaterThanOrEqual(20);
  });
});

describe('alerts', () => {
  it('toggles: the same type from the same place dismisses the active alert', async () => {
    const raised = await front.post('/api/alerts', { sessionId, type: 'help', location: 'Front Queue' });
    expect(raised.status).toBe(200);
    expect(raised.body).toMatchObject({
      dismissed: false,
      alert: {
        type: 'help',
        status: 'active',
        location: 'Front Queue',
        message: 'Help requested at Front Queue',
      },
    });
    expect((await front.get(`/api/alerts?sessionId=${sessionId}`)).body.map((a: any) => a.id)).toEqual([
      raised.body.alert.id,
    ]);
    const other = await front.post('/api/alerts', { sessionId, type: 'emergency', location: 'Front Queue' });
    expect(other.body.alert.message).toBe('Emergency assistance needed at Front Queue');
    const again = await front.post('/api/alerts', { sessionId, type: 'help', location: 'Front Queue' });
    expect(again.body).toMatchObject({
      dismissed: true,
      alert: { id: raised.body.alert.id, status: 'dismissed' },
    });
    const listed = (await front.get(`/api/alerts?sessionId=${sessionId}`)).body;
    expect(listed.map((a: any) => a.type)).toEqual(['emergency']);
    const dismissed = await front.put(`/api/alerts/${other.body.alert.id}/dismiss`);
    expect(dismissed.body.status).toBe('dismissed');
    expect((await front.get(`/api/alerts?sessionId=${sessionId}`)).body).toEqual([]);
  });

  it('never holds two active alerts of one type at one place when two tablets press at once', async () => {
    const presses = await Promise.all([
      front.post('/api/alerts', { sessionId, type: 'help', location: 'Back Queue' }),
      front.post('/api/alerts', { sessionId, type: 'help', location: 'Back Queue' }),
    ]);
    expect(presses.every((p) => p.status === 200)).toBe(true);
    const listed = (await front.get(`/api/alerts?sessionId=${sessionId}`)).body;
    expect(listed.filter((a: any) => a.location === 'Back Queue').length).toBeLessThanOrEqual(1);
  });

  it('answers 400 for an unknown alert type and 404 for an unknown alert', async () => {
    const bad = await front.post('/api/alerts', { sessionId, type: 'fire', location: 'Front Queue' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Alert type must be emergency or help');
    expect((await front.put('/api/alerts/987654/dismiss')).status).toBe(404);
  });

  it('raises an alert in a new session even when the same alert was left active when the last one ended', async () => {
    const left = await front.post('/api/alerts', { sessionId, type: 'emergency', location: 'Gate 3' });
    expect(left.body.dismissed).toBe(false);
    // Back queue staff and above end a session.
    await (await signedIn(server.url, 'back_demo')).put(`/api/sessions/${sessionId}/end`);
    sessionId = (await front.post('/api/sessions', sessionBody())).body.id;

    const pressed = await front.post('/api/alerts', { sessionId, type: 'emergency', location: 'Gate 3' });
    expect(pressed.status).toBe(200);
    expect(pressed.body).toMatchObject({ dismissed: false, alert: { sessionId, status: 'active' } });
    const listed = (await front.get(`/api/alerts?sessionId=${sessionId}`)).body;
    expect(listed.map((a: any) => a.id)).toEqual([pressed.body.alert.id]);
  });
});
