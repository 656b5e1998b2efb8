import { invoke, scheduledEvent } from '@curbside/local';
import { pickupSessions } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchoolWithStaff, sessionBody } from '../support/fixtures';
import { type LiveClient, openLive } from '../support/live';
import { type Client, signedIn, startTestServer } from '../support/server';

/**
 * A session started or ended reaches every staff screen of the school at
 * once (issue 50, item 2): `SESSION_STARTED` and `SESSION_ENDED` on the
 * school's staff channel, which every signed-in staff connection joins at
 * `$connect` whatever it follows (a teacher narrowed to classrooms too), so
 * a screen with no session hears of a new one. The schedule's auto-end says
 * so too. Nothing goes to another school, a parent or an anonymous page.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Client;
const sockets: LiveClient[] = [];

beforeAll(async () => {
  server = await startTestServer();
  admin = await signedIn(server.url, 'admin_demo');
});
afterAll(async () => {
  for (const socket of sockets) await socket.close();
  await server?.close();
});

const open = async (cookie?: string) => {
  const socket = await openLive(server.url, { cookie });
  sockets.push(socket);
  return socket;
};

/** A running session of the demo school whose end time passed `ago` ms ago (the schedule has not come yet). */
const pastItsEnd = (ago: number) =>
  pickupSessions.create(
    server.db,
    {
      schoolId: 1,
      name: 'Afternoon Pickup',
      type: 'afternoon_pickup',
      startTime: new Date(Date.now() - 3 * 3_600_000).toISOString(),
      endTime: new Date(Date.now() - ago).toISOString(),
      notes: null,
    },
    { actor: { kind: 'schedule' }, retentionDays: 400 },
  );

/** Waits for the next message of `type`, passing over others (pongs, answers to subscribes). */
const nextOf = async (socket: LiveClient, type: string, timeoutMs = 5_000) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const message = (await socket.take(Math.max(1, deadline - Date.now()))) as { type: string; data: any };
    if (message.type === type) return message;
  }
};

/** Sends a ping and collects everything up to its pong: what arrived before it. */
const drain = async (socket: LiveClient) => {
  socket.socket.send(JSON.stringify({ type: 'ping' }));
  const seen: string[] = [];
  for (;;) {
    const message = (await socket.take(3_000)) as { type: string };
    if (message.type === 'pong') return seen;
    seen.push(message.type);
  }
};

describe('a session starting and ending', () => {
  it('reaches every staff screen of the school at once, and nobody else', async () => {
    await createSchoolWithStaff(server.db, 'elsewhere');
    const [front, back, teacher, parent, other] = await Promise.all(
      ['front_demo', 'back_demo', 'teacher_demo', 'parent_demo', 'elsewhere_front_queue_wrangler'].map(
        (name) => signedIn(server.url, name),
      ),
    );
    if (!front || !back || !teacher || !parent || !other) throw new Error('not signed in');
    const screens = {
      front: await open(front.cookie),
      back: await open(back.cookie),
      teacher: await open(teacher.cookie),
      admin: await open(admin.cookie),
    };
    // The teacher screen follows its classrooms only: still told of the session.
    const rooms = (await teacher.get('/api/classrooms')).body as Array<{ id: number }>;
    screens.teacher.socket.send(JSON.stringify({ action: 'subscribe', classroomIds: [rooms[0]?.id] }));
    await nextOf(screens.teacher, 'subscribed');
    const outsiders = [await open(parent.cookie), await open(other.cookie), await open()];

    const started = await admin.post('/api/sessions', sessionBody());
    expect(started.status).toBe(201);
    for (const screen of Object.values(screens)) {
      const event = await nextOf(screen, 'SESSION_STARTED');
      expect(event.data).toEqual({ schoolId: 1, session: started.body });
    }

    const ended = await back.put(`/api/sessions/${started.body.id}/end`);
    expect(ended.status).toBe(200);
    for (const screen of Object.values(screens)) {
      const event = await nextOf(screen, 'SESSION_ENDED');
      expect(event.data).toEqual({ schoolId: 1, session: ended.body });
    }
    for (const outsider of outsiders) expect(await drain(outsider)).toEqual([]);
  });

  it('reaches them when the schedule ends a session past its end time', async () => {
    const screen = await open(admin.cookie);
    const session = await pastItsEnd(60_000);
    // With its function's access in AWS (it may publish).
    await invoke('scheduled/end-sessions', scheduledEvent('end-sessions'));
    const event = await nextOf(screen, 'SESSION_ENDED');
    expect(event.data.session).toMatchObject({ id: session.id, status: 'ended' });
  });

  it('tells them of the session a start ended first (one that ran past its end before the schedule came)', async () => {
    const screen = await open(admin.cookie);
    const stale = await pastItsEnd(1_000);
    const started = await admin.post('/api/sessions', sessionBody());
    expect(started.status).toBe(201);
    expect((await nextOf(screen, 'SESSION_ENDED')).data.session).toMatchObject({ id: stale.id });
    expect((await nextOf(screen, 'SESSION_STARTED')).data.session).toMatchObject({ id: started.body.id });
    await admin.put(`/api/sessions/${started.body.id}/end`);
  });
});
