import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { instantIn, type Vehicle } from '@curbside/domain';
import { localDynamoClient } from '@curbside/local';
import { DEMO_TIME_ZONE } from '@curbside/local/seed';
import { dismissalEvents, type Student, schools, students, vehicles } from '@curbside/store';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStaff, parentThroughInvite, sessionBody } from '../support/fixtures';
import { Client, signedIn, startTestServer } from '../support/server';

/**
 * Families announce their arrival (issue 53): the school's arrival setting
 * (off → 403), the running session (none → 409), the geofence (outside →
 * 409 with the distance; the position's accuracy counted up to 100 m), one
 * arrival per parent and session, `auto` queueing the family's car once with
 * the parent as the record's actor, `confirm` queueing nothing, another
 * parent seeing nothing of it, and no position ever stored.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Client;
let front: Client;
let car: Vehicle;
let riders: Student[];
let settings: Record<string, unknown>;

/** The school's point: a quiet field 2.3 km south of the test's far position. */
const SCHOOL_POINT = { lat: 40.0, lon: -90.0 };
/** Metres per degree of latitude (the haversine's sphere). */
const M_PER_DEGREE = (6_371_008.8 * Math.PI) / 180;
const north = (metres: number, accuracy = 10) => ({
  lat: SCHOOL_POINT.lat + metres / M_PER_DEGREE,
  lon: SCHOOL_POINT.lon,
  accuracy,
});

const setArrival = async (arrival: unknown) => {
  const answer = await admin.put('/api/schools/1/settings', { ...settings, arrival });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
};
const fence = (radiusM = 200) => ({ ...SCHOOL_POINT, radiusM });

let parents = 0;
/** A new parent of `student` (through an invite), signed in. */
const parentOf = async (student: Student) => {
  parents += 1;
  return parentThroughInvite(server.url, admin, student.id, `arrival_parent_${parents}`);
};

/** Ends any running session and starts a new one: a clean line. */
const newSession = async () => {
  const active = (await front.get('/api/sessions/active')).body;
  if (active) expect((await admin.put(`/api/sessions/${active.id}/end`)).status).toBe(200);
  const made = await front.post('/api/sessions', sessionBody());
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.id as number;
};

const endSession = async () => {
  const active = (await front.get('/api/sessions/active')).body;
  if (active) expect((await admin.put(`/api/sessions/${active.id}/end`)).status).toBe(200);
};

const everyDay = (way: unknown) => ({ plan: { mon: way, tue: way, wed: way, thu: way, fri: way } });

beforeAll(async () => {
  server = await startTestServer();
  [admin, front] = await Promise.all([
    signedIn(server.url, 'admin_demo'),
    signedIn(server.url, 'front_demo'),
  ]);
  settings = (await admin.get('/api/schools/1/settings')).body;
  const fleet = await vehicles.listBySchool(server.db, 1);
  car = fleet.find((vehicle) => vehicle.type === 'car' && vehicle.studentIds.length > 0) as Vehicle;
  riders = await students.getMany(server.db, 1, car.studentIds);
  // Whatever day the test runs, the car's children go home by car.
  for (const rider of riders) {
    expect(
      (await admin.put(`/api/students/${rider.id}/dismissal-plan`, everyDay({ mode: 'car' }))).status,
    ).toBe(200);
  }
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  await setArrival({ mode: 'off', geofence: null });
});

describe('announcing an arrival', () => {
  it('is refused while the school takes no announcements (403), before a session (409), and by a parent with no child there (404)', async () => {
    const parent = await parentOf(riders[0] as Student);
    await newSession();
    const off = await parent.post('/api/parent/arrivals', { state: 'on_the_way' });
    expect({ status: off.status, body: off.body }).toEqual({
      status: 403,
      body: { message: 'This school does not take arrival announcements' },
    });
    await setArrival({ mode: 'confirm', geofence: null });
    await endSession();
    const early = await parent.post('/api/parent/arrivals', { state: 'here' });
    expect({ status: early.status, body: early.body }).toEqual({
      status: 409,
      body: { message: 'Pickup has not started yet' },
    });
    await newSession();
    const elsewhere = (
      await schools.create(server.db, {
        name: 'Arrival Elsewhere',
        districtId: 1,
        active: true,
        sandbox: false,
      })
    ).id;
    const notThere = await parent.post('/api/parent/arrivals', { state: 'here', schoolId: elsewhere });
    expect({ status: notThere.status, body: notThere.body }).toEqual({
      status: 404,
      body: { message: 'You have no child at that school' },
    });
    const none = new Client(server.url);
    const registered = await none.post('/api/auth/parent/register', {
      name: 'No Child',
      username: 'arrival_childless',
      password: 'secret-pass-1',
      email: 'childless@example.com',
      phone: '555-0100',
      role: 'parent',
    });
    expect(registered.status).toBe(201);
    if (!none.cookie)
      await none.post('/api/auth/parent/login', { username: 'arrival_childless', password: 'secret-pass-1' });
    expect((await none.post('/api/parent/arrivals', { state: 'on_the_way' })).status).toBe(404);
    expect((await none.get('/api/parent/arrivals')).body).toEqual({ schools: [] });
  });

  it('outside the geofence is 409 with the distance; inside (accuracy counted up to 100 m) is 201', async () => {
    await setArrival({ mode: 'confirm', geofence: fence(200) });
    const sessionId = await newSession();
    const parent = await parentOf(riders[0] as Student);
    const far = await parent.post('/api/parent/arrivals', { state: 'here', position: north(2300) });
    expect({ status: far.status, body: far.body }).toEqual({
      status: 409,
      body: { message: 'You are 2.3 km from the school; announce when you arrive', distanceM: 2300 },
    });
    // 350 m with 300 m accuracy: only 100 m of it counts, so still outside.
    const vague = await parent.post('/api/parent/arrivals', { state: 'here', position: north(350, 300) });
    expect(vague.status).toBe(409);
    expect(vague.body.message).toBe('You are 350 m from the school; announce when you arrive');
    // "Here" with a fence needs a position; "on my way" needs none.
    const blind = await parent.post('/api/parent/arrivals', { state: 'here' });
    expect(blind.status).toBe(400);
    expect(blind.body.issues).toEqual([
      { path: 'position', message: 'Share your location to announce that you are here' },
    ]);
    const onTheWay = await parent.post('/api/parent/arrivals', { state: 'on_the_way' });
    expect(onTheWay.status).toBe(201);
    // 280 m with 90 m accuracy: 190 m counts, inside the 200 m fence.
    const here = await parent.post('/api/parent/arrivals', { state: 'here', position: north(280, 90) });
    expect(here.status).toBe(201);
    expect(here.body).toEqual({
      arrival: {
        id: onTheWay.body.arrival.id,
        state: 'here',
        studentIds: expect.arrayContaining([riders[0]?.id]),
        vehicleNumber: car.number.toUpperCase(),
      },
    });
    // Announcing again updated the one arrival: staff read one, "here".
    const list = (await front.get(`/api/arrivals?sessionId=${sessionId}`)).body.arrivals;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      id: onTheWay.body.arrival.id,
      state: 'here',
      vehicleNumber: car.number.toUpperCase(),
      vehicleType: 'car',
      entryId: null,
      queuedBy: null,
      students: expect.arrayContaining([expect.objectContaining({ id: riders[0]?.id })]),
    });
  });

  it('another parent sees nothing of it; a parent cannot read the school’s arrivals', async () => {
    await setArrival({ mode: 'confirm', geofence: null });
    const sessionId = await newSession();
    const [mine, theirs] = await Promise.all([parentOf(riders[0] as Student), parentOf(otherChild())]);
    expect((await mine.post('/api/parent/arrivals', { state: 'on_the_way' })).status).toBe(201);
    const seen = (await theirs.get('/api/parent/arrivals')).body;
    expect(seen).toEqual({
      schools: [
        expect.objectContaining({
          schoolId: 1,
          sessionId,
          mode: 'confirm',
          needsPosition: false,
          arrival: null,
        }),
      ],
    });
    expect(JSON.stringify(seen)).not.toContain(car.number.toUpperCase());
    expect((await theirs.get(`/api/arrivals?sessionId=${sessionId}`)).status).toBe(403);
    const own = (await mine.get('/api/parent/arrivals')).body.schools[0];
    expect(own.arrival).toMatchObject({ state: 'on_the_way', vehicleNumber: car.number.toUpperCase() });
    // Once the session ends, its arrivals are gone for staff too.
    await endSession();
    expect((await front.get(`/api/arrivals?sessionId=${sessionId}`)).body).toEqual({ arrivals: [] });
  });

  it('"confirm" queues nothing until staff tap; the tap is the usual add', async () => {
    await setArrival({ mode: 'confirm', geofence: null });
    const sessionId = await newSession();
    const parent = await parentOf(riders[0] as Student);
    expect((await parent.post('/api/parent/arrivals', { state: 'here' })).status).toBe(201);
    expect((await front.get(`/api/queue?sessionId=${sessionId}`)).body).toEqual([]);
    const tapped = await front.post('/api/queue', {
      sessionId,
      vehicleNumber: car.number,
      vehicleType: 'car',
    });
    expect(tapped.status).toBe(201);
    expect(tapped.body.queuedBy).toBeUndefined();
  });

  it('"auto" queues the family\'s car once (twice announced, one entry), the parent as the record\'s actor', async () => {
    await setArrival({ mode: 'auto', geofence: fence(300) });
    const sessionId = await newSession();
    const parent = await parentOf(riders[0] as Student);
    const me = (await parent.get('/api/me')).body;
    // On the way: nothing queued yet.
    expect((await parent.post('/api/parent/arrivals', { state: 'on_the_way' })).status).toBe(201);
    expect((await front.get(`/api/queue?sessionId=${sessionId}`)).body).toEqual([]);
    const [first, second] = await Promise.all([
      parent.post('/api/parent/arrivals', { state: 'here', position: north(100) }),
      parent.post('/api/parent/arrivals', { state: 'here', position: north(120) }),
    ]);
    expect([first.status, second.status]).toEqual([201, 201]);
    const again = await parent.post('/api/parent/arrivals', { state: 'here', position: north(50) });
    const queue = (await front.get(`/api/queue?sessionId=${sessionId}`)).body;
    expect(queue).toHaveLength(1);
    expect(queue[0]).toMatchObject({
      vehicleNumber: car.number.toUpperCase(),
      queuedBy: 'announcement',
      students: expect.arrayContaining([expect.objectContaining({ id: riders[0]?.id })]),
    });
    expect(again.body.arrival.entryId).toBe(queue[0].id);
    const [arrival] = (await front.get(`/api/arrivals?sessionId=${sessionId}`)).body.arrivals;
    expect(arrival).toMatchObject({ entryId: queue[0].id, queuedBy: 'announcement', state: 'here' });
    const queued = (await dismissalEvents.ofSession(server.db, sessionId)).filter(
      (event) => event.kind === 'vehicle_queued',
    );
    expect(queued).toHaveLength(1);
    expect(queued[0]?.actor).toMatchObject({ id: me.id, role: 'parent', username: me.username });
    // Announcing does not bypass any release rule: staff still complete the pickup, and are asked.
    const completed = await front.request('DELETE', `/api/queue/${queue[0].id}`, { reason: 'picked_up' });
    expect(completed.status).toBe(409);
    expect(completed.body.unreleased.length).toBeGreaterThan(0);
  });

  it('a family with no car on file announces as a walk-up; one with no car rider today is told to call', async () => {
    // A school day (on a weekend every child goes by car), the clock running from a Wednesday morning.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    vi.setSystemTime(instantIn(DEMO_TIME_ZONE, '2026-11-25', '10:00'));
    try {
      await walkUpAndWalker();
    } finally {
      await endSession();
      vi.useRealTimers();
    }
  });

  const walkUpAndWalker = async () => {
    await setArrival({ mode: 'auto', geofence: null });
    const sessionId = await newSession();
    const walkUp = (await students.listBySchool(server.db, 1)).find(
      (student) => !riders.some((rider) => rider.id === student.id) && !carried(student.id),
    ) as Student;
    await admin.put(`/api/students/${walkUp.id}/dismissal-plan`, everyDay({ mode: 'car' }));
    const parent = await parentOf(walkUp);
    const answer = await parent.post('/api/parent/arrivals', { state: 'here' });
    expect(answer.status).toBe(201);
    expect(answer.body.arrival).toEqual({
      id: expect.any(String),
      state: 'here',
      studentIds: [walkUp.id],
      vehicleNumber: null,
    });
    expect((await front.get(`/api/queue?sessionId=${sessionId}`)).body).toEqual([]);
    // Today (whatever day it is) the child walks: the office's change for today.
    const { date } = (await admin.get('/api/dismissal-plan')).body;
    const walks = await admin.post('/api/dismissal-changes', {
      studentId: walkUp.id,
      date,
      way: { mode: 'walker' },
    });
    expect(walks.status, JSON.stringify(walks.body)).toBe(201);
    const walker = await parent.post('/api/parent/arrivals', { state: 'here' });
    expect({ status: walker.status, body: walker.body }).toEqual({
      status: 409,
      body: { message: 'None of your children goes home by car today. Please call the school office.' },
    });
    expect((await admin.request('DELETE', `/api/dismissal-changes/${walks.body.change.id}`)).status).toBe(
      200,
    );
  };

  it('stores no position: no item of the table holds the coordinates a parent sent', async () => {
    await setArrival({ mode: 'auto', geofence: fence(500) });
    await newSession();
    const parent = await parentOf(riders[0] as Student);
    const sent = {
      lat: SCHOOL_POINT.lat + 0.001234567,
      lon: SCHOOL_POINT.lon - 0.000765432,
      accuracy: 12.345678,
    };
    expect((await parent.post('/api/parent/arrivals', { state: 'on_the_way', position: sent })).status).toBe(
      201,
    );
    expect((await parent.post('/api/parent/arrivals', { state: 'here', position: sent })).status).toBe(201);
    const items: unknown[] = [];
    const client = localDynamoClient(process.env.AWS_ENDPOINT_URL_DYNAMODB as string);
    try {
      let start: Record<string, never> | undefined;
      do {
        const page = await client.send(
          new ScanCommand({ TableName: server.db.table, ExclusiveStartKey: start }),
        );
        items.push(...(page.Items ?? []));
        start = page.LastEvaluatedKey as Record<string, never> | undefined;
      } while (start);
    } finally {
      client.destroy();
    }
    const text = JSON.stringify(items);
    expect(text).toContain('"entity":{"S":"arrival"}');
    for (const value of [sent.lat, sent.lon, sent.accuracy]) {
      expect(text).not.toContain(String(value));
      expect(text).not.toContain(value.toFixed(5));
    }
  });

  it('is rate-limited per parent', async () => {
    await setArrival({ mode: 'confirm', geofence: null });
    await newSession();
    const parent = await parentOf(riders[0] as Student);
    const answers: number[] = [];
    for (let i = 0; i < 13; i++)
      answers.push((await parent.post('/api/parent/arrivals', { state: 'on_the_way' })).status);
    expect(answers.slice(0, 12).every((status) => status === 201)).toBe(true);
    expect(answers[12]).toBe(429);
  });
});

describe('the arrival setting', () => {
  it('round-trips, is off by default, and keeps the radius within 50–2000 m', async () => {
    await setArrival({ mode: 'auto', geofence: fence(2000) });
    expect((await admin.get('/api/schools/1/settings')).body.arrival).toEqual({
      mode: 'auto',
      geofence: fence(2000),
    });
    for (const radiusM of [49, 2001, 100.5]) {
      const refused = await admin.put('/api/schools/1/settings', {
        ...settings,
        arrival: { mode: 'auto', geofence: fence(radiusM) },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.issues[0]).toEqual({
        path: 'arrival.geofence.radiusM',
        message: 'Radius must be a whole number of metres from 50 to 2000',
      });
    }
    const other = await schools.create(server.db, {
      name: 'Arrival Default',
      districtId: 1,
      active: true,
      sandbox: false,
    });
    await createStaff(server.db, {
      username: 'arrival_default_admin',
      role: 'school_admin',
      schoolId: other.id,
      districtId: 1,
    });
    const otherAdmin = await signedIn(server.url, 'arrival_default_admin');
    expect((await otherAdmin.get(`/api/schools/${other.id}/settings`)).body.arrival).toEqual({
      mode: 'off',
      geofence: null,
    });
  });
});

/** Whether any vehicle of the demo school carries the student. */
let carriedIds: Set<number> | undefined;
const carried = (id: number) => carriedIds?.has(id) ?? false;
beforeAll(async () => {
  carriedIds = new Set((await vehicles.listBySchool(server.db, 1)).flatMap((vehicle) => vehicle.studentIds));
});
const otherChild = () => {
  const found = [...(carriedIds ?? [])].find((id) => !car.studentIds.includes(id));
  return { id: found } as Student;
};
