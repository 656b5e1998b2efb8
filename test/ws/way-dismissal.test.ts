import { instantIn } from '@curbside/domain';
import { DEMO_TIME_ZONE } from '@curbside/local/seed';
import { parentLinks, vehicles } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createStaff, sessionBody } from '../support/fixtures';
import { type LiveClient, openLive } from '../support/live';
import { type Client, signedIn, startTestServer } from '../support/server';

/**
 * The dismissal by way home over the live connection (issue 52): a walkers'
 * release and a bus queued and loading reach the teacher screens of the
 * classrooms whose children they concern, and no other teacher's. The
 * server's clock is a Wednesday morning in the demo school's zone.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Client;
let teacher: Client;
let front: Client;
let sessionId: number;
let roomA: number;
let roomB: number;
let bus: { id: number; number: string };
const kids: Record<string, number> = {};
type Screen = LiveClient;
const screens: Screen[] = [];

const WEDNESDAY = '2026-11-25';
const everyDay = (way: object) => ({ mon: way, tue: way, wed: way, thu: way, fri: way });

const addStudent = async (name: string, classroomId: number, car: string, way?: object) => {
  const added = await admin.post('/api/students', {
    firstName: name,
    lastName: 'Ways',
    grade: '3',
    classroomId,
    parentName: `Parent of ${name}`,
    vehicles: [{ type: 'car', number: car }],
  });
  expect(added.status).toBe(201);
  kids[name] = added.body.id;
  if (way)
    expect(
      (await admin.put(`/api/students/${added.body.id}/dismissal-plan`, { plan: everyDay(way) })).status,
    ).toBe(200);
};

/** A teacher screen subscribed to one classroom. */
const screenFor = async (classroomId: number) => {
  const screen = await openLive(server.url, { cookie: teacher.cookie });
  screens.push(screen);
  screen.socket.send(JSON.stringify({ action: 'subscribe', classroomIds: [classroomId] }));
  await screen.next('subscribed', 10_000);
  screen.messages.length = 0;
  return screen;
};

/** Sends a ping and waits for its pong: every event published before reached the socket first. */
const settled = async (screen: Screen) => {
  const pongs = screen.messages.filter((message) => message.type === 'pong').length;
  screen.socket.send(JSON.stringify({ type: 'ping' }));
  await expect
    .poll(() => screen.messages.filter((message) => message.type === 'pong').length, { timeout: 10_000 })
    .toBeGreaterThan(pongs);
};

const typesOf = (screen: Screen) =>
  screen.messages.map((message) => message.type).filter((type) => !['pong', 'subscribed'].includes(type));

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(instantIn(DEMO_TIME_ZONE, WEDNESDAY, '10:00'));
  server = await startTestServer();
  [admin, teacher, front] = await Promise.all([
    signedIn(server.url, 'admin_demo'),
    signedIn(server.url, 'teacher_demo'),
    signedIn(server.url, 'front_demo'),
  ]);
  roomA = (await admin.post('/api/classrooms', { name: 'Ways Room A', grade: '3' })).body.id;
  roomB = (await admin.post('/api/classrooms', { name: 'Ways Room B', grade: '3' })).body.id;
  bus = (await vehicles.buses(server.db, 1))[0] as { id: number; number: string };
  await addStudent('Wes', roomA, 'W931', { mode: 'walker' });
  await addStudent('Wil', roomB, 'W932', { mode: 'walker' });
  await addStudent('Bea', roomA, 'W933', { mode: 'bus', vehicleId: bus.id });
  // Bo rides the bus every day but walks today: the bus is none of Room B's business today.
  await addStudent('Bo', roomB, 'W934', { mode: 'bus', vehicleId: bus.id });
  expect(
    (
      await admin.post('/api/dismissal-changes', {
        studentId: kids.Bo,
        date: WEDNESDAY,
        way: { mode: 'walker' },
      })
    ).status,
  ).toBe(201);
  sessionId = (await front.post('/api/sessions', sessionBody())).body.id;
}, 120_000);

afterAll(async () => {
  vi.useRealTimers();
  await Promise.all(screens.map((screen) => screen.close()));
  await server?.close();
});

describe('releases by way home over the live connection', () => {
  it('a walkers’ release reaches the teachers of its classrooms only', async () => {
    const [screenA, screenB] = [await screenFor(roomA), await screenFor(roomB)];
    const released = await teacher.post('/api/walkers/release', { classroomIds: [roomA] });
    expect(released.body).toEqual({ released: [kids.Wes] });
    const event = await screenA.next('STUDENTS_RELEASED', 10_000);
    expect(event.data).toMatchObject({
      sessionId,
      way: { mode: 'walker', name: 'Walker' },
      releasedAt: expect.any(String),
      students: [{ id: kids.Wes, classroomId: roomA }],
    });
    await settled(screenB);
    expect(typesOf(screenB)).not.toContain('STUDENTS_RELEASED');
  });

  it('a bus queued and loading reaches its riders’ teachers only, as today’s ways say', async () => {
    const [screenA, screenB] = [await screenFor(roomA), await screenFor(roomB)];
    const queued = await front.post('/api/queue', {
      sessionId,
      vehicleNumber: bus.number,
      vehicleType: 'bus',
    });
    expect(queued.status).toBe(201);
    const ids = queued.body.students.map((student: { id: number }) => student.id);
    expect(ids).toContain(kids.Bea);
    expect(ids).not.toContain(kids.Bo);
    expect(queued.body.notCalled).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: kids.Bo, reason: 'Walker today' })]),
    );
    await screenA.next('VEHICLE_QUEUED', 10_000);
    const batch = await front.post('/api/batches', { sessionId, vehicleType: 'bus', fill: true });
    expect(batch.status).toBe(201);
    await expect.poll(() => typesOf(screenA).length, { timeout: 10_000 }).toBeGreaterThan(1);
    await settled(screenB);
    expect(typesOf(screenB)).toEqual([]);

    // Bea's teacher releases the bus's riders in one tap: heard in Room A only.
    const riders = await teacher.post(`/api/buses/${bus.id}/release`, { classroomIds: [roomA, roomB] });
    expect(riders.body).toEqual({ released: [kids.Bea] });
    const event = await screenA.next('STUDENTS_RELEASED', 10_000);
    expect(event.data.way).toEqual({ mode: 'bus', vehicleId: bus.id, name: `Bus B${bus.number}` });
    await settled(screenB);
    expect(typesOf(screenB)).toEqual([]);
  });

  it('each released child’s parents hear of a release by way home (when, never who), and no other parent', async () => {
    await addStudent('Wren', roomA, 'W935', { mode: 'walker' });
    await addStudent('Olly', roomB, 'W936', { mode: 'walker' });
    const pages: Screen[] = [];
    for (const [name, child] of [
      ['parent_ways_wren', kids.Wren],
      ['parent_ways_olly', kids.Olly],
    ] as const) {
      const user = await createStaff(server.db, {
        username: name,
        role: 'parent',
        schoolId: null,
        districtId: null,
      });
      await parentLinks.link(server.db, user.id, 1, child as number);
      const page = await openLive(server.url, { cookie: (await signedIn(server.url, name)).cookie });
      screens.push(page);
      pages.push(page);
    }
    const [wrens, ollys] = pages as [Screen, Screen];
    await Promise.all(pages.map(settled));
    const released = await teacher.post('/api/walkers/release', { classroomIds: [roomA] });
    expect(released.body).toEqual({ released: [kids.Wren] });
    const heard = await wrens.next('STUDENT_STATUS_UPDATE', 10_000);
    expect(heard.data).toEqual({
      studentId: kids.Wren,
      sessionId,
      status: 'released',
      releasedAt: expect.any(String),
    });
    await settled(ollys);
    expect(typesOf(ollys)).toEqual([]);
  });
});
