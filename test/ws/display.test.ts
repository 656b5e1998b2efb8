import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startFreshSession } from '../support/car-line';
import { tokenOf } from '../support/fixtures';
import { eventually, type LiveClient, openLive, upgradeStatus } from '../support/live';
import { type Client, signedIn, startTestServer } from '../support/server';

/**
 * The hallway display (issue 32): its link (school admins and above), its
 * connection (`/ws?t=`) that gets the called students and nothing private,
 * a student leaving the board when picked up, and a rotated link stopping at
 * once (HTTP and the open socket).
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Client;
let back: Client;
const open: LiveClient[] = [];

interface Board {
  sessionId: number | null;
  groups: Array<{
    batchNumber: number | null;
    lane: string;
    vehicles: Array<{ vehicleNumber: string; students: Array<{ firstName: string; lastInitial: string }> }>;
  }>;
}
const boards = (client: LiveClient) =>
  client.inbox
    .filter((message) => (message as { type: string }).type === 'DISPLAY_BOARD')
    .map((message) => (message as { data: Board }).data);
const lastBoard = (client: LiveClient) => boards(client).at(-1);

const display = async (token: string) => {
  const client = await openLive(server.url, { query: `?t=${token}` });
  open.push(client);
  client.socket.send(JSON.stringify({ type: 'DISPLAY_REFRESH' }));
  await eventually(async () => lastBoard(client) !== undefined, 10_000);
  return client;
};

/** A new session of the demo school (once any running one is ended) and a display of the school open. */
const displayOfNewSession = async () => {
  const token = tokenOf((await admin.get('/api/display-link')).body.url);
  const sessionId = await startFreshSession(back);
  return { sessionId, tv: await display(token) };
};

beforeAll(async () => {
  server = await startTestServer();
  [admin, back] = await Promise.all([signedIn(server.url, 'admin_demo'), signedIn(server.url, 'back_demo')]);
});
afterAll(async () => {
  await Promise.all(open.map((client) => client.close()));
  await server?.close();
});

describe('the display link', () => {
  it('is the school admin’s (and above): wranglers and teachers are refused', async () => {
    const link = await admin.get('/api/display-link');
    expect(link.status).toBe(200);
    expect(link.body.url).toMatch(/\/display\?t=[A-Za-z0-9_-]{32}$/);
    expect((await admin.get('/api/display-link')).body).toEqual(link.body);
    for (const username of ['front_demo', 'back_demo', 'teacher_demo']) {
      const client = await signedIn(server.url, username);
      expect((await client.get('/api/display-link')).status, username).toBe(403);
      expect((await client.post('/api/display-link/rotate')).status, username).toBe(403);
    }
    expect(await upgradeStatus(server.url, { query: `?t=${'B'.repeat(32)}` })).toBe(403);
  });
});

describe('the display connection', () => {
  it('gets the called students by batch, first names and last initials only, and drops them when picked up', async () => {
    const { sessionId, tv } = await displayOfNewSession();
    expect(lastBoard(tv)).toEqual({ sessionId, groups: [] });

    await back.post('/api/queue', { sessionId, vehicleNumber: '101', vehicleType: 'car' });
    const queued = (await back.get(`/api/queue?sessionId=${sessionId}`)).body as Array<{
      vehicleNumber: string;
      students: Array<{ firstName: string; lastName: string }>;
      vehicle: Record<string, unknown> | null;
    }>;
    const car = queued.find((entry) => entry.vehicleNumber === '101');
    expect(car?.students.length).toBeGreaterThan(0);
    // Waiting in the line is not called: the board stays empty.
    expect(lastBoard(tv)?.groups).toEqual([]);

    const batch = (await back.post('/api/batches', { sessionId, vehicleType: 'car', fill: true })).body;
    expect(batch.currentCount).toBe(1);
    await eventually(async () => (lastBoard(tv)?.groups.length ?? 0) > 0, 10_000);
    const board = lastBoard(tv) as Board;
    expect(board.groups).toEqual([
      {
        batchNumber: batch.batchNumber,
        lane: 'car',
        calledAt: expect.any(String),
        vehicles: [
          {
            vehicleNumber: '101',
            students: car?.students.map((student) => ({
              id: expect.any(Number),
              firstName: student.firstName,
              lastInitial: student.lastName.charAt(0).toUpperCase(),
            })),
          },
        ],
      },
    ]);
    // Nothing private on the display's connection: no last name, no parent, no phone, no other message type.
    const everything = JSON.stringify(tv.inbox);
    for (const student of car?.students ?? []) {
      if (student.lastName.length > 1) expect(everything).not.toContain(student.lastName);
    }
    for (const value of Object.values(car?.vehicle ?? {})) {
      if (typeof value === 'string' && value.length > 3 && value !== '101')
        expect(everything).not.toContain(value);
    }
    expect(everything).not.toMatch(/phone|parent|email|guardian/i);
    expect(new Set(tv.inbox.map((message) => (message as { type: string }).type))).toEqual(
      new Set(['DISPLAY_BOARD']),
    );

    // Picked up: the batch completes and the student leaves the board.
    const done = await back.put(`/api/batches/${batch.id}`, {
      status: 'completed',
      confirmUnreleased: true,
      endTime: new Date().toISOString(),
    });
    expect(done.status).toBe(200);
    await eventually(async () => lastBoard(tv)?.groups.length === 0, 10_000);
    await back.put(`/api/sessions/${sessionId}/end`);
  });

  it('gets a student a teacher released while the car still waits, at once, and only that student', async () => {
    const { sessionId, tv } = await displayOfNewSession();
    // Car 112 carries three children; it waits in the line, in no batch.
    const car = (await back.post('/api/queue', { sessionId, vehicleNumber: '112', vehicleType: 'car' })).body;
    const [, , third] = car.students as Array<{ id: number; firstName: string; lastName: string }>;
    const teacher = await signedIn(server.url, 'teacher_demo');
    expect((await teacher.put(`/api/teacher/students/${third?.id}/release`)).status).toBe(200);
    await eventually(async () => (lastBoard(tv)?.groups.length ?? 0) > 0, 10_000);
    expect(lastBoard(tv)?.groups).toEqual([
      {
        batchNumber: null,
        lane: 'car',
        calledAt: expect.any(String),
        vehicles: [
          {
            vehicleNumber: '112',
            students: [
              { id: third?.id, firstName: third?.firstName, lastInitial: third?.lastName.charAt(0) },
            ],
          },
        ],
      },
    ]);
    await back.put(`/api/sessions/${sessionId}/end`);
  });

  it('a rotated link stops at once: its open display is closed and it opens no other', async () => {
    const before = tokenOf((await admin.get('/api/display-link')).body.url);
    const tv = await display(before);
    const closed = new Promise<void>((resolve) => {
      if (tv.socket.readyState === WebSocket.CLOSED) resolve();
      else tv.socket.once('close', () => resolve());
    });
    const rotated = await admin.post('/api/display-link/rotate');
    expect(rotated.status).toBe(200);
    const after = tokenOf(rotated.body.url);
    expect(after).not.toBe(before);
    await closed;
    expect(await upgradeStatus(server.url, { query: `?t=${before}` })).toBe(403);
    expect(await upgradeStatus(server.url, { query: `?t=${after}` })).toBe(101);
    expect((await admin.get('/api/display-link')).body).toEqual(rotated.body);
    // A bus link is no display link, nor the reverse: the new display token joins no bus channel.
    const fresh = await display(after);
    expect(lastBoard(fresh)).toBeDefined();
  });
});
