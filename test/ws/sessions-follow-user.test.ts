import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { queueCar } from '../support/car-line';
import { sessionBody } from '../support/fixtures';
import { openLive, upgradeStatus } from '../support/live';
import { Client, signedIn, startTestServer } from '../support/server';

/**
 * What a signed-in screen's live connection may receive: nothing once its
 * sign-in has ended, and nothing at all when a page of another site opened it.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let front: Client;
let sessionId: number;
beforeAll(async () => {
  server = await startTestServer();
  front = await signedIn(server.url, 'front_demo');
  const active = (await front.get('/api/sessions/active')).body;
  sessionId = active?.id ?? (await front.post('/api/sessions', sessionBody())).body.id;
});
afterAll(async () => {
  await server?.close();
});

let car = 300;
/** Queues a car from the front tablet: a VEHICLE_QUEUED event to the school's staff. */
const queueNextCar = () => queueCar(front, sessionId, String(++car));
const closedOf = (socket: WebSocket) =>
  new Promise<number>((resolve) => {
    if (socket.readyState === WebSocket.CLOSED) resolve(1000);
    else socket.once('close', (code) => resolve(code));
  });

describe('logging out', () => {
  it('closes the live connection opened with that sign-in: it gets nothing after', async () => {
    const teacher = await signedIn(server.url, 'teacher_demo');
    const screen = await openLive(server.url, { cookie: teacher.cookie });
    await queueNextCar();
    await screen.next('VEHICLE_QUEUED');
    const received = screen.messages.length;

    const closed = closedOf(screen.socket);
    expect((await teacher.post('/api/logout')).status).toBe(200);
    expect(await closed).toBe(1000);
    await queueNextCar();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.messages).toHaveLength(received);
  });

  it("leaves the user's other signed-in tablets and their connections alone", async () => {
    const tabletA = await signedIn(server.url, 'back_demo');
    const tabletB = await signedIn(server.url, 'back_demo');
    const screenA = await openLive(server.url, { cookie: tabletA.cookie });
    const screenB = await openLive(server.url, { cookie: tabletB.cookie });
    await tabletA.post('/api/logout');
    await closedOf(screenA.socket);
    await queueNextCar();
    expect((await screenB.next('VEHICLE_QUEUED')).type).toBe('VEHICLE_QUEUED');
    expect((await tabletB.get('/api/me')).status).toBe(200);
    await screenB.close();
  });

  it('signs a parent out of the live connection too', async () => {
    const parent = await signedIn(server.url, 'parent_demo');
    const screen = await openLive(server.url, { cookie: parent.cookie });
    const closed = closedOf(screen.socket);
    expect((await parent.post('/api/auth/logout')).status).toBe(200);
    expect(await closed).toBe(1000);
  });
});

describe('ending every sign-in of a user (deactivation, password change)', () => {
  it('revokes every session and closes every live connection of that user, and no one else’s', async () => {
    const { endSignIns } = await import('@curbside/functions/services/auth');
    const admin = await signedIn(server.url, 'admin_demo');
    const adminPhone = await signedIn(server.url, 'admin_demo');
    const other = await signedIn(server.url, 'front_demo');
    const screen = await openLive(server.url, { cookie: admin.cookie });
    const phoneScreen = await openLive(server.url, { cookie: adminPhone.cookie });
    const otherScreen = await openLive(server.url, { cookie: other.cookie });
    const userId = (await admin.get('/api/me')).body.id as number;

    const closing = [closedOf(screen.socket), closedOf(phoneScreen.socket)];
    expect(await endSignIns(userId)).toBe(2);
    await Promise.all(closing);
    expect((await admin.get('/api/me')).status).toBe(401);
    expect((await adminPhone.get('/api/me')).status).toBe(401);

    await queueNextCar();
    await otherScreen.next('VEHICLE_QUEUED');
    expect(screen.messages.filter((m) => m.type === 'VEHICLE_QUEUED')).toEqual([]);
    expect(phoneScreen.messages.filter((m) => m.type === 'VEHICLE_QUEUED')).toEqual([]);
    expect((await other.get('/api/me')).status).toBe(200);
    await otherScreen.close();
  });
});

describe('the school admin deactivating a teacher or giving a new password', () => {
  it('signs the teacher out everywhere at once, live connection included', async () => {
    const admin = await signedIn(server.url, 'admin_demo');
    const created = await admin.post('/api/teachers', { firstName: 'Wren', lastName: 'Okafor', email: null });
    expect(created.status).toBe(201);
    const { id } = created.body.teacher;
    const { username, password } = created.body.credentials;

    // A new password: the sign-in made with the old one ends.
    const wren = new Client(server.url);
    await wren.login(username, password);
    const screen = await openLive(server.url, { cookie: wren.cookie });
    const closed = closedOf(screen.socket);
    const reset = await admin.put(`/api/teachers/${id}`, {
      firstName: 'Wren',
      lastName: 'Okafor',
      resetPassword: true,
    });
    expect(reset.status).toBe(200);
    expect(await closed).toBe(1000);
    expect((await wren.get('/api/me')).status).toBe(401);

    // Deactivation: signed in again with the new password, then out at once.
    await wren.login(username, reset.body.credentials.password);
    const again = await openLive(server.url, { cookie: wren.cookie });
    const closedAgain = closedOf(again.socket);
    expect((await admin.request('DELETE', `/api/teachers/${id}`)).status).toBe(200);
    expect(await closedAgain).toBe(1000);
    expect((await wren.get('/api/me')).status).toBe(401);
    await queueNextCar();
    expect(again.messages.filter((m) => m.type === 'VEHICLE_QUEUED')).toEqual([]);
  });
});

describe('a page of another site', () => {
  it('cannot open the live connection with a staff cookie, so it never sees queue events', async () => {
    const status = await upgradeStatus(server.url, {
      headers: { cookie: front.cookie as string, origin: 'https://pta.example-school.org' },
    });
    expect(status).toBe(403);
  });
});
