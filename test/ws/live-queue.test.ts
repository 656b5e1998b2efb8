import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionBody } from '../support/fixtures';
import { openLive } from '../support/live';
import { signedIn, startTestServer } from '../support/server';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('live queue events', () => {
  it("reach the school's signed-in staff and never an anonymous connection", async () => {
    const front = await signedIn(server.url, 'front_demo');
    const back = await signedIn(server.url, 'back_demo');
    const parent = await signedIn(server.url, 'parent_demo');
    const sessionId = (await front.post('/api/sessions', sessionBody())).body.id;

    const frontScreen = await openLive(server.url, { cookie: front.cookie });
    const backScreen = await openLive(server.url, { cookie: back.cookie });
    const anonymous = await openLive(server.url);
    const parentScreen = await openLive(server.url, { cookie: parent.cookie });

    const entry = (await front.post('/api/queue', { sessionId, vehicleNumber: '104', vehicleType: 'car' }))
      .body;
    for (const screen of [frontScreen, backScreen]) {
      const queued = await screen.next('VEHICLE_QUEUED');
      expect(queued).toMatchObject({ sessionId, seq: expect.any(Number) });
      expect(queued.data).toMatchObject({
        entry: { id: entry.id, vehicleNumber: '104', status: 'waiting', version: 1 },
        vehicle: { number: '104', make: 'Subaru', model: 'Outback', color: 'Green' },
      });
      expect(queued.data.entry.students.length).toBeGreaterThan(0);
    }
    await back.put(`/api/queue/${entry.id}/status`, { status: 'overflow' });
    await frontScreen.next('QUEUE_STATUS_UPDATED');
    await back.request('DELETE', `/api/queue/${entry.id}`);
    expect((await frontScreen.next('VEHICLE_REMOVED')).data).toMatchObject({
      entry: { id: entry.id, status: 'overflow' },
      batch: null,
    });

    const alert = (await back.post('/api/alerts', { sessionId, type: 'emergency', location: 'Back Queue' }))
      .body;
    expect((await frontScreen.next('ALERT_CREATED')).data).toMatchObject({
      id: alert.alert.id,
      type: 'emergency',
    });
    await front.put(`/api/alerts/${alert.alert.id}/dismiss`);
    expect((await backScreen.next('ALERT_DISMISSED')).data).toEqual({ id: alert.alert.id, removed: true });

    // The last event reached the staff screens; give stray messages a moment, then check.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(anonymous.messages).toEqual([]);
    expect(parentScreen.messages).toEqual([]);
    await Promise.all([frontScreen, backScreen, anonymous, parentScreen].map((screen) => screen.close()));
  });

  it('answers ping with pong', async () => {
    const screen = await openLive(server.url);
    screen.socket.send(JSON.stringify({ type: 'ping' }));
    expect(await screen.next('pong')).toEqual({ type: 'pong' });
    await screen.close();
  });
});
