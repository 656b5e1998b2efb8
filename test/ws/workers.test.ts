import { fileURLToPath } from 'node:url';
import { channels, IMPORT_JOBS } from '@curbside/api';
import type { BusLinks, BusPosition } from '@curbside/domain';
import { invoke, type RunningServer, scheduledEvent, startServer } from '@curbside/local';
import { connections, students } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionBody } from '../support/fixtures';
import { openLive } from '../support/live';
import { signedIn, startTestServer, testConnectionsDb } from '../support/server';

/**
 * The laptop runtime with its functions in worker threads (`workers`), beside the same
 * runtime with every handler on one thread, on the same tables: the answers are the same,
 * a worker keeps its own module state, a crashed worker fails only its request (502), and
 * IAM still holds per worker. `/api/health` and the student-information import's district list
 * run a stand-in handler (`test/support/worker-handler.ts`) in the workers.
 */
const standIn = fileURLToPath(new URL('../support/worker-handler.ts', import.meta.url));
let inProcess: Awaited<ReturnType<typeof startTestServer>>;
let pooled: RunningServer;

beforeAll(async () => {
  inProcess = await startTestServer();
  pooled = await startServer({
    port: 0,
    tableName: process.env.TABLE_NAME as string,
    connectionTableName: process.env.CONNECTION_TABLE_NAME as string,
    dynamoEndpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB as string,
    workers: 2,
    workerModules: { 'http/health': standIn, 'http/sisDistricts': standIn },
  });
}, 120_000);
afterAll(async () => {
  await pooled?.close();
  await inProcess?.close();
});

const health = async (query: string) => {
  const response = await fetch(`${pooled.url}/api/health?${query}`);
  return {
    status: response.status,
    body: (await response.json()) as { count: number; threadId: number; message?: string },
  };
};

describe('functions in worker threads', () => {
  it('answer HTTP routes as the handlers on one thread do', async () => {
    const here = await signedIn(inProcess.url, 'admin_demo');
    const there = await signedIn(pooled.url, 'admin_demo');
    for (const path of ['/api/me', '/api/schools/1', '/api/classrooms', '/api/vehicles', '/api/nope']) {
      const [a, b] = await Promise.all([here.get(path), there.get(path)]);
      expect({ path, status: b.status, body: b.body }).toEqual({ path, status: a.status, body: a.body });
    }
    const refused = await fetch(`${pooled.url}/api/me`);
    expect(refused.status).toBe(401);
  }, 60_000);

  it('run the WebSocket handler: a queue change made in one worker reaches a screen through the main thread', async () => {
    const front = await signedIn(pooled.url, 'front_demo');
    const screen = await openLive(pooled.url, { cookie: front.cookie });
    const sessionId = (await front.post('/api/sessions', sessionBody())).body.id;
    const entry = (await front.post('/api/queue', { sessionId, vehicleNumber: '104', vehicleType: 'car' }))
      .body;
    expect((await screen.next('VEHICLE_QUEUED')).data.entry.id).toBe(entry.id);
    await front.request('DELETE', `/api/queue/${entry.id}`);
    expect((await screen.next('VEHICLE_REMOVED')).data.entry.id).toBe(entry.id);
    await front.put(`/api/sessions/${sessionId}/end`);
    await screen.close();
  }, 60_000);

  it('run the scheduled and the import-jobs functions with the same answers', async () => {
    const event = scheduledEvent('end-sessions');
    expect(await pooled.workers?.invoke('scheduled/end-sessions', event)).toEqual(
      await invoke('scheduled/end-sessions', event),
    );
    // A run of a job that does not exist ends at once, in either place.
    const run = { jobId: 'no-such-job', runId: 'r1' };
    const [here, there] = await Promise.allSettled([
      invoke(IMPORT_JOBS.module, run),
      pooled.workers?.invoke(IMPORT_JOBS.module, run),
    ]);
    expect(there.status).toBe(here.status);
    if (here.status === 'fulfilled' && there.status === 'fulfilled') expect(there.value).toEqual(here.value);
  }, 60_000);

  it('keep module state per worker, and reuse warm workers', async () => {
    // Two requests at once take two workers of the function; each counts its own.
    const [a, b] = await Promise.all([health('action=wait&ms=400'), health('action=wait&ms=400')]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.threadId).not.toBe(b.body.threadId);
    expect(pooled.workers?.sizes()['http-auth']).toBe(2);
    // Later requests go to those warm workers (at most 2): their counts go on.
    const later = await Promise.all([health('action=wait&ms=200'), health('action=wait&ms=200')]);
    expect(new Set(later.map((answer) => answer.body.threadId))).toEqual(
      new Set([a.body.threadId, b.body.threadId]),
    );
    expect(later.every((answer) => answer.body.count >= 2)).toBe(true);
    expect(pooled.workers?.sizes()['http-auth']).toBe(2);
  }, 60_000);

  it('answer 502 for a request whose worker crashed, and the next request succeeds', async () => {
    const crashed = await health('action=crash');
    expect(crashed).toEqual({ status: 502, body: { message: 'Internal Server Error' } });
    const next = await health('action=count');
    expect(next.status).toBe(200);
    // A worker killed from outside mid-request: that request alone fails.
    const slow = health('action=wait&ms=3000');
    await expect.poll(() => pooled.workers?.workersOf('http-auth').length ?? 0).toBeGreaterThan(0);
    await new Promise((resolve) => setImmediate(resolve));
    const [victim] = pooled.workers?.workersOf('http-auth') ?? [];
    const others = health('action=count');
    await victim?.terminate();
    const answers = await Promise.all([slow, others]);
    expect(answers.map((answer) => answer.status).sort()).toContain(200);
    expect((await health('action=count')).status).toBe(200);
  }, 60_000);

  it('still refuse a post from a function without ManageConnections, and allow one with it', async () => {
    const screen = await openLive(pooled.url);
    const db = testConnectionsDb();
    let connectionId: string | undefined;
    await expect
      .poll(async () => {
        const ids = await connections.inChannel(db, channels.public());
        connectionId = ids.at(-1);
        return ids.length;
      })
      .toBeGreaterThan(0);
    // The import page's function (no ManageConnections) is refused before the post reaches the socket.
    const refused = (await pooled.workers?.invoke('http/sisDistricts', {
      action: 'post',
      connectionId,
    })) as {
      body: string;
    };
    expect(JSON.parse(refused.body).answer).toEqual({ status: 403, errorType: 'AccessDeniedException' });
    // The auth function publishes: its post goes through (or the connection is gone), never refused.
    const allowed = (await pooled.workers?.invoke('http/health', { action: 'post', connectionId })) as {
      body: string;
    };
    expect([200, 410]).toContain(JSON.parse(allowed.body).answer.status);
    await screen.close();
  }, 60_000);

  it('bring a moving fleet’s positions to the map within about a second, each in whichever worker takes it', async () => {
    // Five buses, a driver's phone each, two positions a second for 8 s: each worker of the
    // WebSocket function sees only a share of them. A position that came after its second's
    // message must neither be lost nor hold a worker that the positions behind it wait for.
    // Then B1 drives on alone for 2 s: a late position of the others' last round may wait for
    // a moving bus's next one (issue 31), as the relay promises, and B1's last waits for no one.
    const admin = await signedIn(pooled.url, 'admin_demo');
    const { driverUrl, mapUrl } = (await admin.get('/api/bus-links')).body as BusLinks;
    const token = (url: string) => new URL(url).searchParams.get('t') as string;
    const map = await openLive(pooled.url, { query: `?t=${token(mapUrl)}` });
    const buses = ['B1', 'B2', 'B3', 'B4', 'B5'];
    const drivers = await Promise.all(
      buses.map(() => openLive(pooled.url, { query: `?t=${token(driverUrl)}` })),
    );
    // When the map first showed each bus at each round or a later one.
    const shown = new Map<string, number>();
    map.socket.on('message', (raw) => {
      const message = JSON.parse(raw.toString()) as { type: string; data: { buses?: BusPosition[] } };
      if (message.type !== 'BUS_LOCATIONS') return;
      for (const { busId, location } of message.data.buses ?? []) {
        const round = Math.round((location.latitude - 29) * 1000);
        for (let r = 0; r <= round; r++)
          if (!shown.has(`${busId}#${r}`)) shown.set(`${busId}#${r}`, Date.now());
      }
    });
    const sentAt: number[] = [];
    try {
      for (let round = 1; round <= 20; round++) {
        sentAt[round] = Date.now();
        drivers.forEach((driver, i) => {
          if (round > 16 && i > 0) return;
          const location = {
            latitude: 29 + round / 1000,
            longitude: -81.44 - i / 1000,
            speed: 8,
            accuracy: 5,
            heading: 90,
            timestamp: sentAt[round] as number,
          };
          driver.socket.send(
            JSON.stringify({ type: 'BUS_LOCATION_UPDATE', data: { busId: buses[i], location } }),
          );
        });
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      const lastRound = (busId: string) => (busId === 'B1' ? 20 : 16);
      const everyone = () => buses.every((busId) => shown.has(`${busId}#${lastRound(busId)}`));
      await expect.poll(everyone, { timeout: 60_000 }).toBe(true);
      // How late each position reached the map: a second of coalescing, and room for a busy machine.
      const late = buses.flatMap((busId) =>
        sentAt.flatMap((at, round) =>
          at === undefined || round > lastRound(busId)
            ? []
            : [(shown.get(`${busId}#${round}`) as number) - at],
        ),
      );
      expect(Math.max(...late)).toBeLessThan(4000);
    } finally {
      await Promise.all([map, ...drivers].map((client) => client.close()));
    }
  }, 120_000);

  it('send emailed invites from the mail sender in its own worker, kept by the main thread', async () => {
    const db = inProcess.db;
    const child = await students.create(db, {
      schoolId: 1,
      firstName: 'Wren',
      lastName: 'Worker',
      grade: '2',
      classroomId: null,
      parentName: 'Wanda Worker',
      parentPhone: null,
      parentEmail: 'wanda.worker@family.example',
      notes: null,
    } as never);
    const admin = await signedIn(pooled.url, 'admin_demo');
    const answer = await admin.post('/api/parent-invites/email', { studentIds: [child.id] });
    expect(answer.body).toMatchObject({ queued: 1, skipped: 0 });
    await expect
      .poll(async () => (await admin.get(`/api/parent-invites/email/${answer.body.runId}`)).body, {
        timeout: 30_000,
      })
      .toEqual({ queued: 1, sent: 1, failed: 0, skipped: 0, done: true });
    const kept = pooled.mail.list().filter((mail) => mail.to.includes('wanda.worker@family.example'));
    expect(kept).toHaveLength(1);
    expect(kept[0]?.subject).toContain('Wren W.');
  }, 60_000);
});
