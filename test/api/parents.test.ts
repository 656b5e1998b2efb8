import { authSessions, meter } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchoolWithStaff, sessionBody } from '../support/fixtures';
import { openLive } from '../support/live';
import { Client, signedIn, startTestServer } from '../support/server';

/**
 * The parent portal's calls: a parent reads their own children's pickup and
 * hears about them live, and nothing about anyone else.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let front: Client;
let back: Client;
let teacher: Client;
let parent: Client;
let admin: Client;
let child: { id: number; firstName: string; lastName: string; schoolName: string };
let childCar: string;
let sessionId: number;
beforeAll(async () => {
  // Metered: the status poll's reads are checked (issue 31).
  process.env.CURBSIDE_METER = '1';
  server = await startTestServer();
  [front, back, teacher, parent, admin] = await Promise.all([
    signedIn(server.url, 'front_demo'),
    signedIn(server.url, 'back_demo'),
    signedIn(server.url, 'teacher_demo'),
    signedIn(server.url, 'parent_demo'),
    signedIn(server.url, 'admin_demo'),
  ]);
  [child] = (await parent.get('/api/parent/students')).body;
  const roster = (await teacher.get('/api/teacher/students')).body as Array<{
    id: number;
    vehicle: { number: string } | null;
  }>;
  childCar = roster.find((student) => student.id === child.id)?.vehicle?.number as string;
});
afterAll(async () => {
  await server?.close();
  delete process.env.CURBSIDE_METER;
});

let registered = 0;
const newParent = async () => {
  registered += 1;
  const client = new Client(server.url);
  const answer = await client.post('/api/auth/parent/register', {
    name: `Parent ${registered}`,
    username: `parent_portal_${registered}`,
    password: 'secret-pass-1',
    email: `parent_portal_${registered}@example.com`,
    phone: '555-0101',
  });
  expect(answer.status).toBe(201);
  return client;
};

const statusOf = async (client: Client) => {
  const answer = await client.get('/api/parent/students/status');
  expect(answer.status).toBe(200);
  return answer.body as Array<Record<string, unknown>>;
};

describe("a parent's children", () => {
  it('are the linked ones, with their school, and not in the queue without a session', async () => {
    expect(child).toMatchObject({ id: expect.any(Number), schoolName: 'Lincoln Elementary' });
    expect(childCar).toMatch(/^\d+$/);
    expect(await statusOf(parent)).toEqual([
      {
        id: child.id,
        firstName: child.firstName,
        lastName: child.lastName,
        grade: expect.any(String),
        vehicleType: null,
        vehicleNumber: null,
        status: 'not_in_queue',
        queuePosition: null,
        estimatedWaitTime: null,
        batchNumber: null,
        entryTime: null,
        pickupTime: null,
      },
    ]);
  });

  it('of another family stay out of reach: a new parent sees none, and a spent code links nobody', async () => {
    const other = await newParent();
    expect((await other.get('/api/parent/students')).body).toEqual([]);
    expect(await statusOf(other)).toEqual([]);
    // A code parent_demo's family used: nobody else can use it.
    const code = (await teacher.post('/api/pickup-codes/generate', { studentId: child.id })).body.code;
    const family = await newParent();
    expect((await family.post('/api/parent/link-student', { pickupCode: code })).status).toBe(200);
    const refused = await other.post('/api/parent/link-student', { pickupCode: code });
    expect(refused).toMatchObject({
      status: 409,
      body: { message: 'This pickup code has already been used' },
    });
    expect(await statusOf(other)).toEqual([]);
    expect((await family.get('/api/parent/students')).body).toMatchObject([{ id: child.id }]);
  });

  it("of another school's code: the parent is linked to that child only, in that school", async () => {
    const school = await createSchoolWithStaff(server.db, 'elsewhere');
    const staff = await signedIn(server.url, 'elsewhere_school_admin');
    const made = await staff.post('/api/students', { firstName: 'Remy', lastName: 'Far', grade: '2' });
    expect(made.status).toBe(201);
    const code = (await staff.post('/api/pickup-codes/generate', { studentId: made.body.id })).body.code;
    const other = await newParent();
    expect((await other.post('/api/parent/link-student', { pickupCode: code })).status).toBe(200);
    expect((await other.get('/api/parent/students')).body).toEqual([
      expect.objectContaining({ id: made.body.id, schoolId: school.id, schoolName: 'elsewhere School' }),
    ]);
  });

  it('follow the car: in the queue with place and wait, batched, ready once released, picked up', async () => {
    const live = await openLive(server.url, { cookie: parent.cookie });
    sessionId = (await front.post('/api/sessions', sessionBody())).body.id;
    // Two cars ahead of the child's.
    for (const number of ['104', '105']) {
      if (number !== childCar)
        await front.post('/api/queue', { sessionId, vehicleNumber: number, vehicleType: 'car' });
    }
    const entry = (await front.post('/api/queue', { sessionId, vehicleNumber: childCar, vehicleType: 'car' }))
      .body;
    const queued = await live.next('STUDENT_STATUS_UPDATE');
    expect(queued.data).toEqual({ studentId: child.id, sessionId, status: 'in_queue' });
    const [waiting] = await statusOf(parent);
    expect(waiting).toMatchObject({
      status: 'in_queue',
      vehicleType: 'car',
      vehicleNumber: childCar,
      queuePosition: entry.position,
      batchNumber: null,
      entryTime: entry.entryTime,
      pickupTime: null,
    });
    // The default rate (4 cars a minute) before the session has pickups.
    expect(waiting?.estimatedWaitTime).toBe(Math.ceil((entry.position as number) / 4));

    const batch = (await back.post('/api/batches', { sessionId, vehicleType: 'car', fill: true })).body;
    await expect.poll(async () => (await statusOf(parent))[0]?.batchNumber).toBe(batch.batchNumber);

    live.messages.length = 0;
    const released = await teacher.put(`/api/teacher/students/${child.id}/release`);
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    // When, never by whom (staff screens only).
    expect((await live.next('STUDENT_STATUS_UPDATE')).data).toEqual({
      studentId: child.id,
      sessionId,
      status: 'released',
      releasedAt: released.body.releasedAt,
    });
    expect((await statusOf(parent))[0]).toMatchObject({
      status: 'ready_for_pickup',
      queuePosition: null,
      estimatedWaitTime: null,
      batchNumber: null,
    });

    live.messages.length = 0;
    await back.put(`/api/batches/${batch.id}`, { status: 'completed', confirmUnreleased: true });
    expect((await live.next('STUDENT_STATUS_UPDATE')).data).toEqual({
      studentId: child.id,
      sessionId,
      status: 'picked_up',
    });
    expect((await statusOf(parent))[0]).toMatchObject({
      status: 'picked_up',
      vehicleNumber: null,
      pickupTime: expect.any(String),
    });
    await live.close();
    await admin.put(`/api/sessions/${sessionId}/end`);
  });
});

describe("a parent's live connection during a 50-car rush", () => {
  it('hears about their own child only, and the line moving at most once in 15 s', async () => {
    const live = await openLive(server.url, { cookie: parent.cookie });
    sessionId = (await front.post('/api/sessions', sessionBody())).body.id;
    // The dashboard open before the child's car comes: this instance knows the session from its poll.
    expect(await statusOf(parent)).toMatchObject([{ status: 'not_in_queue' }]);
    // 49 other cars, then the child's: it waits while the batches ahead load and leave.
    const numbers = Array.from({ length: 60 }, (_, i) => String(100 + i))
      .filter((number) => number !== childCar)
      .slice(0, 49);
    numbers.push(childCar);
    for (const number of numbers) {
      await front.post('/api/queue', { sessionId, vehicleNumber: number, vehicleType: 'car' });
    }
    await live.next('STUDENT_STATUS_UPDATE');
    // Load and complete the first batches: the cars behind move up.
    for (let round = 0; round < 3; round++) {
      const batch = (await back.post('/api/batches', { sessionId, vehicleType: 'car', fill: true })).body;
      await back.put(`/api/batches/${batch.id}`, { status: 'completed', confirmUnreleased: true });
    }
    const moved = await live.next('QUEUE_UPDATE');
    expect(moved.data).toEqual({ studentId: child.id });
    // The wait now comes from the session's own pickups (the 30 newest, all within this minute), not the default rate.
    const completed = (await front.get(`/api/queue?sessionId=${sessionId}&status=completed`))
      .body as unknown[];
    expect(completed.length).toBeGreaterThanOrEqual(3);
    // The first poll that needs the session's pickups reads them with its own first reads (issue 54:
    // kept by the pickups' event numbers, read by key): 2 calls, none of its own for the estimate.
    meter.reset();
    const [waiting] = await statusOf(parent);
    expect(meter.snapshot()['http/parentStudentStatus']).toMatchObject({
      'ddb.calls': 2,
      'ddb.BatchGetItem.calls': 1,
      'ddb.Query.calls': 1,
    });
    expect(waiting).toMatchObject({ status: 'in_queue', queuePosition: expect.any(Number) });
    const rate = Math.min(30, completed.length);
    expect(waiting?.estimatedWaitTime).toBe(
      Math.max(1, Math.ceil((waiting?.queuePosition as number) / rate)),
    );
    expect(rate).not.toBe(4);
    // The next poll: the same wait, in the same 2 calls (issue 54: the sign-in with the plan's links,
    // children, session with its latest pickups and marks in one BatchGetItem, and the active queue's Query).
    meter.reset();
    const [again] = await statusOf(parent);
    expect(again?.estimatedWaitTime).toBe(waiting?.estimatedWaitTime);
    expect(meter.snapshot()['http/parentStudentStatus']).toMatchObject({
      'ddb.calls': 2,
      'ddb.BatchGetItem.calls': 1,
      'ddb.Query.calls': 1,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(live.messages.length).toBeGreaterThan(0);
    for (const message of live.messages) {
      expect(['STUDENT_STATUS_UPDATE', 'QUEUE_UPDATE']).toContain(message.type);
      expect(message.data.studentId).toBe(child.id);
      expect(Object.keys(message.data).sort()).toEqual(
        message.type === 'QUEUE_UPDATE' ? ['studentId'] : ['sessionId', 'status', 'studentId'],
      );
    }
    expect(live.messages.filter((message) => message.type === 'QUEUE_UPDATE')).toHaveLength(1);
    await live.close();
    await admin.put(`/api/sessions/${sessionId}/end`);
  });
});

describe('signing a parent out', () => {
  it('ends the session and closes their live connection', async () => {
    const leaving = await newParent();
    const live = await openLive(server.url, { cookie: leaving.cookie });
    const closed = new Promise<void>((resolve) => live.socket.once('close', () => resolve()));
    const cookie = leaving.cookie;
    expect((await leaving.post('/api/auth/logout')).status).toBeLessThan(300);
    await closed;
    const stale = new Client(server.url);
    stale.cookie = cookie;
    expect((await stale.get('/api/parent/students/status')).status).toBe(401);
  });
});

describe('a sandboxed school', () => {
  it('takes no new parent link, even with a code issued while it was live', async () => {
    const school = await createSchoolWithStaff(server.db, 'gone_sandbox');
    const [schoolAdmin, superAdmin] = await Promise.all([
      signedIn(server.url, 'gone_sandbox_school_admin'),
      signedIn(server.url, 'super_demo'),
    ]);
    const kid = await schoolAdmin.post('/api/students', { firstName: 'Sandy', lastName: 'Box', grade: '1' });
    expect(kid.status, JSON.stringify(kid.body)).toBe(201);
    const code = (await schoolAdmin.post('/api/pickup-codes/generate', { studentId: kid.body.id })).body.code;
    expect(code).toEqual(expect.any(String));
    expect((await superAdmin.put(`/api/schools/${school.id}/sandbox`, { sandbox: true })).status).toBe(200);

    const someone = await newParent();
    for (const [path, body] of [
      ['/api/parent/link-student', { pickupCode: code }],
      ['/api/pickup-codes/use', { code }],
    ] as const) {
      expect(await someone.post(path, body)).toMatchObject({
        status: 403,
        body: { message: 'Read-only mode: this school is in sandbox mode. Changes are not allowed.' },
      });
    }
    expect((await someone.get('/api/parent/students')).body).toEqual([]);
  });
});

describe("a parent's open page, when a child is unlinked", () => {
  it('hears nothing more of that child from the next change, while a parent still linked does', async () => {
    const leaving = await newParent();
    const code = (await teacher.post('/api/pickup-codes/generate', { studentId: child.id })).body.code;
    expect((await leaving.post('/api/parent/link-student', { pickupCode: code })).status).toBe(200);
    const me = (await leaving.get('/api/me')).body;
    const [gone, staying] = await Promise.all([
      openLive(server.url, { cookie: leaving.cookie }),
      openLive(server.url, { cookie: parent.cookie }),
    ]);
    const session = (await front.post('/api/sessions', sessionBody())).body.id;
    const entry = (
      await front.post('/api/queue', { sessionId: session, vehicleNumber: childCar, vehicleType: 'car' })
    ).body;
    for (const page of [gone, staying]) {
      expect((await page.next('STUDENT_STATUS_UPDATE')).data).toMatchObject({
        studentId: child.id,
        status: 'in_queue',
      });
    }

    const unlinked = await admin.put(`/api/parents/${me.id}`, {
      firstName: 'Gone',
      lastName: 'Link',
      email: me.email,
      studentIds: [],
    });
    expect(unlinked.status, JSON.stringify(unlinked.body)).toBe(200);
    gone.messages.length = 0;
    staying.messages.length = 0;
    const ready = await front.put(`/api/queue/${encodeURIComponent(entry.id)}/status`, { status: 'ready' });
    expect(ready.status, JSON.stringify(ready.body)).toBe(200);
    expect((await staying.next('STUDENT_STATUS_UPDATE')).data).toMatchObject({
      studentId: child.id,
      status: 'ready_for_pickup',
    });
    // A teacher's release too: to the parent still linked only.
    staying.messages.length = 0;
    expect((await teacher.put(`/api/teacher/students/${child.id}/release`)).status).toBe(200);
    expect((await staying.next('STUDENT_STATUS_UPDATE')).data).toMatchObject({
      studentId: child.id,
      status: 'released',
    });
    // A ping's pong: every message sent to the page before it reached it first.
    gone.send({ type: 'ping' });
    await gone.next('pong');
    expect(gone.messages.filter((message) => message.type !== 'pong')).toEqual([]);
    await Promise.all([gone.close(), staying.close()]);
    await admin.put(`/api/sessions/${session}/end`);
  });
});

describe("a parent's next poll", () => {
  it('follows what changed since the last one: the next session, and a child no longer linked', async () => {
    // An instance polls by what it found last time (issue 33); each of these changes must show at once.
    const polling = await newParent();
    const code = (await teacher.post('/api/pickup-codes/generate', { studentId: child.id })).body.code;
    expect((await polling.post('/api/parent/link-student', { pickupCode: code })).status).toBe(200);
    const me = (await polling.get('/api/me')).body;
    const queueChildCar = async (id: number) =>
      (await front.post('/api/queue', { sessionId: id, vehicleNumber: childCar, vehicleType: 'car' })).body;

    const first = (await front.post('/api/sessions', sessionBody())).body.id;
    const before = await queueChildCar(first);
    expect(await statusOf(polling)).toEqual([
      expect.objectContaining({ id: child.id, status: 'in_queue', entryTime: before.entryTime }),
    ]);
    expect((await admin.put(`/api/sessions/${first}/end`)).status).toBe(200);
    expect(await statusOf(polling)).toEqual([expect.objectContaining({ status: 'not_in_queue' })]);

    const second = (await front.post('/api/sessions', sessionBody())).body.id;
    const now = await queueChildCar(second);
    expect(now.entryTime).not.toBe(before.entryTime);
    expect(await statusOf(polling)).toEqual([
      expect.objectContaining({ status: 'in_queue', entryTime: now.entryTime, queuePosition: now.position }),
    ]);

    // A child linked since the last poll is in the next one, beside the first (in name order).
    const roster = (await teacher.get('/api/teacher/students')).body as Array<{ id: number }>;
    const sibling = roster.find((student) => student.id !== child.id)?.id as number;
    const made = await admin.post('/api/pickup-codes/generate', { studentId: sibling });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const linked = await polling.post('/api/parent/link-student', { pickupCode: made.body.code });
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    expect((await statusOf(polling)).map((status) => status.id).sort()).toEqual([child.id, sibling].sort());

    const unlinked = await admin.put(`/api/parents/${me.id}`, {
      firstName: 'Poll',
      lastName: 'Plan',
      email: me.email,
      studentIds: [],
    });
    expect(unlinked.status).toBe(200);
    expect(await statusOf(polling)).toEqual([]);
    await admin.put(`/api/sessions/${second}/end`);
  });
});

describe("a poll's reads started with the sign-in", () => {
  it('go to the parent the sign-in is of, not the one its token names', async () => {
    // An instance starts a parent's poll by their last one while it reads the sign-in (issue 33).
    const linked = await newParent();
    const code = (await teacher.post('/api/pickup-codes/generate', { studentId: child.id })).body.code;
    expect((await linked.post('/api/parent/link-student', { pickupCode: code })).status).toBe(200);
    for (let poll = 0; poll < 2; poll++) {
      expect(await statusOf(linked)).toEqual([expect.objectContaining({ id: child.id })]);
    }
    const other = await newParent();
    const [linkedId, otherId] = await Promise.all(
      [linked, other].map(async (client) => (await client.get('/api/me')).body.id as number),
    );
    const token = `${linkedId}-a-token-whose-sign-in-is-another-parent-s-0123456789`;
    await authSessions.put(server.db, token, {
      userId: otherId as number,
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    const named = new Client(server.url);
    named.cookie = `curbside_session=${token}`;
    for (let poll = 0; poll < 2; poll++) expect(await statusOf(named)).toEqual([]);
    const forged = new Client(server.url);
    forged.cookie = `curbside_session=${linkedId}-no-sign-in-behind-this-token-0123456789`;
    expect((await forged.get('/api/parent/students/status')).status).toBe(401);
    expect(await statusOf(linked)).toEqual([expect.objectContaining({ id: child.id })]);
  });
});

describe("a parent's poll in the rush", () => {
  it("reads the session's latest pickups by key once in 10 s on an instance: the polls between read one key fewer", async () => {
    // DynamoDB Local takes its lock once for each key of a BatchGetItem (ADR 0027, "(h54l)", "(h54o)").
    const polling = await newParent();
    const code = (await teacher.post('/api/pickup-codes/generate', { studentId: child.id })).body.code;
    expect((await polling.post('/api/parent/link-student', { pickupCode: code })).status).toBe(200);
    const running = (await front.post('/api/sessions', sessionBody())).body.id;
    const entry = (
      await front.post('/api/queue', { sessionId: running, vehicleNumber: childCar, vehicleType: 'car' })
    ).body;
    const pollRead = async () => {
      meter.reset();
      const [status] = await statusOf(polling);
      const of = meter.snapshot()['http/parentStudentStatus'] ?? {};
      return { status, calls: of['ddb.calls'], keys: of['ddb.BatchGetItem.keys'] };
    };
    // The first poll reads the links whole; the second, by its plan, reads the latest pickups with the sign-in.
    await pollRead();
    await pollRead();
    // Then: the sign-in (2 keys), the child's link, the child, the session and the child's two marks.
    const next = await pollRead();
    expect(next).toMatchObject({ calls: 2, keys: 7 });
    expect(next.status).toMatchObject({
      status: 'in_queue',
      queuePosition: entry.position,
      estimatedWaitTime: Math.ceil((entry.position as number) / 4),
    });
    // The sample is read again once it is 10 s old (SAMPLE_KEPT_MS): one key more, in the same 2 calls.
    await expect
      .poll(
        async () => {
          const { calls, keys } = await pollRead();
          return { calls, keys };
        },
        { timeout: 40_000, interval: 2_000 },
      )
      .toEqual({ calls: 2, keys: 8 });
    await admin.put(`/api/sessions/${running}/end`);
  }, 60_000);
});
