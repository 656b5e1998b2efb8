import { channels, MAX_SUBSCRIBED_CLASSROOMS } from '@curbside/api';
import { connections } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchoolWithStaff, sessionBody } from '../support/fixtures';
import { type LiveClient, openLive } from '../support/live';
import { type Client, signedIn, startTestServer } from '../support/server';

/**
 * Topic routing (issue 31): a teacher screen subscribes to its classrooms and
 * gets only the car-line events of their students; the front and back
 * screens keep the whole line; nothing crosses schools.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Client;
let teacher: Client;
let front: Client;
let back: Client;
let otherAdmin: Client;
let otherFront: Client;
let sessionId: number;
let roomA: number;
let roomB: number;
let roomC: number;
/** Students by name: their id, and the number of the car that carries only them. */
const kids: Record<string, { id: number; car: string }> = {};
const screens: Array<LiveClient> = [];

type Screen = LiveClient;

const screenOf = async (user: Client) => {
  const screen = await openLive(server.url, { cookie: user.cookie });
  screens.push(screen);
  return screen;
};

/** A new teacher screen, with its connection's id (the one the teacher's connections gained) and school. */
const teacherConnection = async () => {
  const me = (await teacher.get('/api/me')).body as { id: number; schoolId: number };
  const ids = async () => (await connections.ofUser(server.connectionsDb, me.id)).map((c) => c.connectionId);
  const before = new Set(await ids());
  const screen = await screenOf(teacher);
  const connectionId = (await ids()).find((id) => !before.has(id));
  if (!connectionId) throw new Error('The teacher screen has no connection row');
  return { screen, connectionId, schoolId: me.schoolId };
};

const addStudent = async (user: Client, name: string, classroomId: number, car: string) => {
  const added = await user.post('/api/students', {
    firstName: name,
    lastName: 'Topic',
    grade: '3',
    classroomId,
    parentName: `Parent of ${name}`,
    vehicles: [{ type: 'car', number: car }],
  });
  expect(added.status).toBe(201);
  kids[name] = { id: added.body.id, car };
};

/** Sends a ping and waits for its pong: every post made before reached the socket first. */
const settled = async (screen: Screen) => {
  const pongs = screen.messages.filter((message) => message.type === 'pong').length;
  screen.socket.send(JSON.stringify({ type: 'ping' }));
  const deadline = Date.now() + 10_000;
  while (screen.messages.filter((message) => message.type === 'pong').length === pongs) {
    if (Date.now() > deadline) throw new Error('No pong within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

/** Sends a subscribe or unsubscribe and answers the `subscribed` message (the screen's messages are cleared first). */
const ask = async (screen: Screen, message: Record<string, unknown>) => {
  screen.messages.length = 0;
  screen.socket.send(JSON.stringify(message));
  return screen.next('subscribed', 10_000);
};

const subscribe = (screen: Screen, classroomIds: unknown) =>
  ask(screen, { action: 'subscribe', classroomIds });

/** The car numbers, student ids and batch ids a message is about. */
const aboutOf = (message: { type: string; data?: any }) => {
  const data = message.data ?? {};
  const entries = [data.entry, ...(data.entries ?? [])].filter(Boolean);
  return {
    cars: entries.map((entry: { vehicleNumber: string }) => entry.vehicleNumber),
    students: [
      ...entries.flatMap((entry: { students: { id: number }[] }) => entry.students.map((s) => s.id)),
      ...(typeof data.studentId === 'number' ? [data.studentId] : []),
    ],
    batch: data.batch?.id as number | undefined,
  };
};

const carLine = (screen: Screen) =>
  screen.messages.filter((message) => !['pong', 'subscribed', 'error'].includes(message.type));

/** Queues the car, loads it alone into a new batch, releases its student and completes the batch. */
const runCar = async (name: string) => {
  const kid = kids[name] as { id: number; car: string };
  const queued = await front.post('/api/queue', { sessionId, vehicleNumber: kid.car, vehicleType: 'car' });
  expect(queued.status).toBe(201);
  const batch = (await back.post('/api/batches', { sessionId, vehicleType: 'car', fill: true })).body;
  expect(batch.currentCount).toBe(1);
  expect((await teacher.put(`/api/teacher/students/${kid.id}/release`)).status).toBe(200);
  const done = await back.put(`/api/batches/${batch.id}`, {
    status: 'completed',
    endTime: new Date().toISOString(),
  });
  expect(done.status).toBe(200);
  return { entryId: queued.body.id as string, batchId: batch.id as number };
};

beforeAll(async () => {
  server = await startTestServer();
  await createSchoolWithStaff(server.db, 'topics');
  admin = await signedIn(server.url, 'admin_demo');
  teacher = await signedIn(server.url, 'teacher_demo');
  front = await signedIn(server.url, 'front_demo');
  back = await signedIn(server.url, 'back_demo');
  otherAdmin = await signedIn(server.url, 'topics_school_admin');
  otherFront = await signedIn(server.url, 'topics_front_queue_wrangler');
  roomA = (await admin.post('/api/classrooms', { name: 'Topic Room A', grade: '3' })).body.id;
  roomB = (await admin.post('/api/classrooms', { name: 'Topic Room B', grade: '3' })).body.id;
  roomC = (await otherAdmin.post('/api/classrooms', { name: 'Topic Room C', grade: '3' })).body.id;
  expect([roomA, roomB, roomC].every((id) => typeof id === 'number')).toBe(true);
  await addStudent(admin, 'Ada', roomA, 'T911');
  await addStudent(admin, 'Ben', roomB, 'T912');
  await addStudent(admin, 'Amy', roomA, 'T913');
  await addStudent(admin, 'Bob', roomB, 'T914');
  await addStudent(otherAdmin, 'Cat', roomC, 'T915');
  sessionId = (await admin.post('/api/sessions', sessionBody())).body.id;
}, 120_000);

afterAll(async () => {
  await Promise.all(screens.map((screen) => screen.close()));
  await server?.close();
});

describe('a teacher connection subscribed to classrooms', () => {
  it('gets the queue, batch and release events of its classroom’s car and none of another’s; front and back get all', async () => {
    const teacherScreen = await screenOf(teacher);
    const frontScreen = await screenOf(front);
    const backScreen = await screenOf(back);
    expect(await subscribe(teacherScreen, [roomA])).toEqual({ type: 'subscribed', classroomIds: [roomA] });

    const a = await runCar('Ada');
    const b = await runCar('Ben');
    await Promise.all([teacherScreen, frontScreen, backScreen].map(settled));

    const ofA = carLine(teacherScreen);
    const types = (list: typeof ofA) => list.map((message) => message.type);
    // Queued, loaded into its batch, released, picked up with the batch.
    expect(types(ofA)).toEqual([
      'VEHICLE_QUEUED',
      'QUEUE_STATUS_UPDATED',
      'STUDENT_STATUS_UPDATE',
      'VEHICLES_REMOVED_FROM_QUEUE',
    ]);
    for (const message of ofA) {
      const about = aboutOf(message);
      expect(about.students).toContain(kids.Ada?.id);
      expect(about.students).not.toContain(kids.Ben?.id);
      expect(about.cars).not.toContain('T912');
      expect(about.batch === undefined || about.batch === a.batchId).toBe(true);
      // A part of the session's sequence: unnumbered, so no gap is read into it.
      expect(message).toMatchObject({ sessionId });
      expect(message).not.toHaveProperty('seq');
    }
    expect(ofA[0]?.data.entry.id).toBe(a.entryId);

    for (const screen of [frontScreen, backScreen]) {
      const all = carLine(screen);
      expect(all.every((message) => typeof (message as { seq?: unknown }).seq === 'number')).toBe(true);
      const cars = new Set(all.flatMap((message) => aboutOf(message).cars));
      expect(cars).toEqual(new Set(['T911', 'T912']));
      const batches = new Set(all.map((message) => aboutOf(message).batch).filter(Boolean));
      expect(batches).toEqual(new Set([a.batchId, b.batchId]));
      const released = all.filter((message) => message.type === 'STUDENT_STATUS_UPDATE');
      expect(released.map((message) => message.data.studentId)).toEqual([kids.Ada?.id, kids.Ben?.id]);
      // Whole sequence, no number skipped.
      const numbers = all.map((message) => (message as { seq?: number }).seq as number);
      expect(numbers).toEqual(numbers.map((_, i) => (numbers[0] as number) + i));
    }
  });

  it('switches to another classroom at once when it subscribes again, and still gets alerts', async () => {
    const teacherScreen = await screenOf(teacher);
    const frontScreen = await screenOf(front);
    await subscribe(teacherScreen, [roomA]);
    expect(await subscribe(teacherScreen, [roomB])).toEqual({ type: 'subscribed', classroomIds: [roomB] });

    for (const car of ['T913', 'T914']) {
      expect(
        (await front.post('/api/queue', { sessionId, vehicleNumber: car, vehicleType: 'car' })).status,
      ).toBe(201);
    }
    const alert = (await back.post('/api/alerts', { sessionId, type: 'help', location: 'Back Queue' })).body;
    await Promise.all([teacherScreen, frontScreen].map(settled));

    const got = carLine(teacherScreen);
    expect(got.map((message) => message.type)).toEqual(['VEHICLE_QUEUED', 'ALERT_CREATED']);
    expect(got[0]?.data.entry.vehicleNumber).toBe('T914');
    expect(got[1]?.data.id).toBe(alert.alert.id);
    expect(got[1]).not.toHaveProperty('seq');
    const frontCars = carLine(frontScreen).flatMap((message) => aboutOf(message).cars);
    expect(frontCars).toEqual(['T913', 'T914']);
    await front.put(`/api/alerts/${alert.alert.id}/dismiss`);

    // Unsubscribing brings the whole line back, numbered.
    expect(await ask(teacherScreen, { action: 'unsubscribe' })).toEqual({
      type: 'subscribed',
      classroomIds: null,
    });
    teacherScreen.messages.length = 0;
    const entry = (await front.get(`/api/queue?sessionId=${sessionId}`)).body.find(
      (queued: { vehicleNumber: string }) => queued.vehicleNumber === 'T913',
    );
    await back.request('DELETE', `/api/queue/${entry.id}`);
    const removed = await teacherScreen.next('VEHICLE_REMOVED', 10_000);
    expect(removed.data.entry.vehicleNumber).toBe('T913');
    expect(removed).toHaveProperty('seq');
  });

  it('keeps the last subscribe the screen sent when an older one is handled after it', async () => {
    const { screen: teacherScreen, connectionId, schoolId } = await teacherConnection();
    // The screen's second message (its classrooms loaded) is handled first…
    expect(await ask(teacherScreen, { action: 'subscribe', classroomIds: [roomA], order: 2 })).toEqual({
      type: 'subscribed',
      classroomIds: [roomA],
    });
    // …then its first (nothing chosen yet): it changes nothing and says what is followed.
    expect(await ask(teacherScreen, { action: 'subscribe', classroomIds: [roomB], order: 1 })).toEqual({
      type: 'subscribed',
      classroomIds: [roomA],
    });
    expect(await ask(teacherScreen, { action: 'unsubscribe', order: 2 })).toEqual({
      type: 'subscribed',
      classroomIds: [roomA],
    });
    const follows = async (channel: string) =>
      (await connections.inChannel(server.connectionsDb, channel)).includes(connectionId);
    expect(await follows(channels.classroom(schoolId, roomA))).toBe(true);
    expect(await follows(channels.classroom(schoolId, roomB))).toBe(false);
    expect(await follows(channels.line(schoolId))).toBe(false);
    // A newer one still switches.
    expect(await ask(teacherScreen, { action: 'subscribe', classroomIds: [roomB], order: 3 })).toEqual({
      type: 'subscribed',
      classroomIds: [roomB],
    });
  });

  it('ends with the newer of two subscribes sent together, whichever is handled first', async () => {
    const { screen: teacherScreen, connectionId, schoolId } = await teacherConnection();
    teacherScreen.messages.length = 0;
    teacherScreen.socket.send(JSON.stringify({ action: 'subscribe', classroomIds: [], order: 1 }));
    teacherScreen.socket.send(JSON.stringify({ action: 'subscribe', classroomIds: [roomA], order: 2 }));
    await expect
      .poll(() => teacherScreen.messages.filter((message) => message.type === 'subscribed').length, {
        timeout: 10_000,
      })
      .toBe(2);
    const answers = teacherScreen.messages.filter((message) => message.type === 'subscribed');
    expect(answers.at(-1)).toEqual({ type: 'subscribed', classroomIds: [roomA] });
    const inRoomA = await connections.inChannel(server.connectionsDb, channels.classroom(schoolId, roomA));
    expect(inRoomA).toContain(connectionId);
  });
});

describe('nothing crosses schools', () => {
  it('drops another school’s classroom from a subscription and sends nothing of it', async () => {
    const teacherScreen = await screenOf(teacher);
    const otherScreen = await screenOf(otherFront);
    expect(await subscribe(teacherScreen, [roomC, roomA])).toEqual({
      type: 'subscribed',
      classroomIds: [roomA],
    });
    const otherSession = (await otherAdmin.post('/api/sessions', sessionBody())).body.id;
    const queued = await otherFront.post('/api/queue', {
      sessionId: otherSession,
      vehicleNumber: 'T915',
      vehicleType: 'car',
    });
    expect(queued.status).toBe(201);
    await otherScreen.next('VEHICLE_QUEUED', 10_000);
    await settled(teacherScreen);
    expect(carLine(teacherScreen)).toEqual([]);

    // Subscribed to that id alone: still nothing of it.
    expect(await subscribe(teacherScreen, [roomC])).toEqual({ type: 'subscribed', classroomIds: [] });
    await otherFront.request('DELETE', `/api/queue/${queued.body.id}`);
    await otherScreen.next('VEHICLE_REMOVED', 10_000);
    await settled(teacherScreen);
    expect(carLine(teacherScreen)).toEqual([]);
  });
});

describe('a bad subscribe message', () => {
  it.each([
    ['no list', { action: 'subscribe' }],
    ['a string', { action: 'subscribe', classroomIds: '1' }],
    ['not numbers', { action: 'subscribe', classroomIds: [1, 'two'] }],
    ['fractions', { action: 'subscribe', classroomIds: [1.5] }],
    ['an order below 0', { action: 'subscribe', classroomIds: [1], order: -1 }],
    ['an order not a number', { action: 'unsubscribe', order: 'next' }],
    [
      'too many ids',
      {
        action: 'subscribe',
        classroomIds: Array.from({ length: MAX_SUBSCRIBED_CLASSROOMS + 1 }, (_, i) => i + 1),
      },
    ],
  ])('(%s) is answered with an error; the socket stays open and keeps its events', async (_, message) => {
    const teacherScreen = await screenOf(teacher);
    await subscribe(teacherScreen, [roomA]);
    teacherScreen.messages.length = 0;
    teacherScreen.socket.send(JSON.stringify(message));
    const error = await teacherScreen.next('error', 10_000);
    expect(error).toMatchObject({ type: 'error', action: message.action, error: expect.any(String) });
    expect(teacherScreen.socket.readyState).toBe(teacherScreen.socket.OPEN);
    // Still subscribed as before: the next event of its classroom arrives.
    const entry = (await front.post('/api/queue', { sessionId, vehicleNumber: 'T911', vehicleType: 'car' }))
      .body;
    const queued = await teacherScreen.next('VEHICLE_QUEUED', 10_000);
    expect(queued.data.entry.id).toBe(entry.id);
    await back.request('DELETE', `/api/queue/${entry.id}`);
  });

  it('from a connection that is not staff is answered with an error', async () => {
    const anonymous = await openLive(server.url);
    screens.push(anonymous);
    anonymous.socket.send(JSON.stringify({ action: 'subscribe', classroomIds: [roomA] }));
    expect(await anonymous.next('error', 10_000)).toMatchObject({ type: 'error', action: 'subscribe' });
    await settled(anonymous);
    expect(anonymous.socket.readyState).toBe(anonymous.socket.OPEN);
  });
});
