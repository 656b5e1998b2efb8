import { districts, schools } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchoolWithStaff, createStaff, sessionBody } from '../support/fixtures';
import { eventually, type LiveClient, openLive } from '../support/live';
import { type Client, signedIn, startTestServer } from '../support/server';

/**
 * A school's settings (issue 32): round-trip, bounds with the field named,
 * roles and tenancy, the sandbox's read-only rule, the live event to the
 * school's staff, and a new batch taking the capacity in force when it is
 * made (one made before keeps its own).
 */
const READ_ONLY = 'Read-only mode: this school is in sandbox mode. Changes are not allowed.';
const SCHOOL = 1;
const valid = {
  carBatchCapacity: 5,
  busBatchCapacity: 3,
  defaultSessionMinutes: 45,
  languages: ['en', 'es'],
  recordRetentionDays: 365,
  phone: null,
  timeZone: 'America/Chicago',
  changeCutoff: '14:00',
  changeApproval: 'auto',
  arrival: { mode: 'confirm', geofence: { lat: 29.9811, lon: -81.4457, radiusM: 400 } },
};
/** Families' arrival announcements, off until the school turns them on (issue 53). */
const ARRIVAL_OFF = { arrival: { mode: 'off', geofence: null } };
/** The demo school's clock as seeded (issue 51). */
const DEMO_CLOCK = { timeZone: 'America/Chicago', changeCutoff: '14:00', changeApproval: 'auto' };

let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Client;
let district: Client;
let sandboxSchoolId: number;
let otherSchoolId: number;
const sockets: LiveClient[] = [];

beforeAll(async () => {
  server = await startTestServer();
  [admin, district] = await Promise.all([
    signedIn(server.url, 'admin_demo'),
    signedIn(server.url, 'district_demo'),
  ]);
  sandboxSchoolId = (await createSchoolWithStaff(server.db, 'sbx', true)).id;
  const otherDistrict = await districts.create(server.db, {
    name: 'Elsewhere',
    active: true,
    sandbox: false,
  });
  otherSchoolId = (
    await schools.create(server.db, {
      name: 'Elsewhere School',
      districtId: otherDistrict.id,
      active: true,
      sandbox: false,
    })
  ).id;
  await createStaff(server.db, {
    username: 'elsewhere_admin',
    role: 'school_admin',
    schoolId: otherSchoolId,
    districtId: otherDistrict.id,
  });
});
afterAll(async () => {
  for (const socket of sockets) await socket.close();
  await server?.close();
});

describe('school settings', () => {
  it('answers the defaults in force before any change', async () => {
    const answer = await admin.get(`/api/schools/${sandboxSchoolId}/settings`);
    expect(answer.status).toBe(404); // not the admin's school
    const own = await admin.get(`/api/schools/${SCHOOL}/settings`);
    expect(own.status).toBe(200);
    expect(own.body).toEqual({
      carBatchCapacity: 8,
      busBatchCapacity: 4,
      defaultSessionMinutes: 120,
      languages: ['en', 'es'],
      recordRetentionDays: 400,
      phone: null,
      ...DEMO_CLOCK,
      ...ARRIVAL_OFF,
    });
  });

  it('round-trips, and tells the school staff screens at once', async () => {
    const back = await signedIn(server.url, 'back_demo');
    const socket = await openLive(server.url, { headers: { cookie: back.cookie as string } });
    sockets.push(socket);
    const saved = await admin.put(`/api/schools/${SCHOOL}/settings`, valid);
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual(valid);
    expect((await admin.get(`/api/schools/${SCHOOL}/settings`)).body).toEqual(valid);
    await eventually(async () =>
      socket.inbox.some(
        (message) =>
          (message as { type: string }).type === 'SCHOOL_SETTINGS_CHANGED' &&
          (message as { data: { settings: unknown } }).data.settings !== undefined &&
          JSON.stringify((message as { data: { settings: unknown } }).data.settings) ===
            JSON.stringify(valid),
      ),
    );
  });

  it.each([
    ['carBatchCapacity', 0],
    ['carBatchCapacity', 31],
    ['carBatchCapacity', 2.5],
    ['busBatchCapacity', 0],
    ['busBatchCapacity', 11],
    ['defaultSessionMinutes', 14],
    ['defaultSessionMinutes', 241],
    ['recordRetentionDays', 29],
    ['recordRetentionDays', 2556],
    ['languages', ['es']],
    ['languages', ['en', 'fr']],
    ['languages', 'en'],
    ['timeZone', 'Mars/Olympus_Mons'],
    ['timeZone', '+05:00'],
    ['timeZone', ''],
    ['timeZone', 42],
    ['changeCutoff', '25:00'],
    ['changeCutoff', '2pm'],
    ['changeCutoff', '14:00:00'],
    ['changeApproval', 'maybe'],
  ] as const)('refuses %s = %j with 400 naming the field', async (field, value) => {
    const answer = await admin.put(`/api/schools/${SCHOOL}/settings`, { ...valid, [field]: value });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body.issues)).toContain(field);
  });

  it('accepts the bounds themselves', async () => {
    const edges = {
      carBatchCapacity: 30,
      busBatchCapacity: 10,
      defaultSessionMinutes: 240,
      languages: ['en'],
      recordRetentionDays: 2555,
    };
    // Without the clock's fields (a client from before them): saved, the clock left as it was.
    expect((await admin.put(`/api/schools/${SCHOOL}/settings`, edges)).body).toEqual({
      ...edges,
      phone: null,
      ...DEMO_CLOCK,
      arrival: expect.any(Object),
    });
    const low = {
      ...edges,
      carBatchCapacity: 1,
      busBatchCapacity: 1,
      defaultSessionMinutes: 15,
      recordRetentionDays: 30,
    };
    expect((await admin.put(`/api/schools/${SCHOOL}/settings`, low)).status).toBe(200);
    await admin.put(`/api/schools/${SCHOOL}/settings`, valid);
  });

  it("keeps the school's clock: a zone as Intl spells it, the cutoff, the approval rule", async () => {
    const clock = { timeZone: 'europe/lisbon', changeCutoff: '13:30', changeApproval: 'office' };
    const saved = await admin.put(`/api/schools/${SCHOOL}/settings`, { ...valid, ...clock });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ ...clock, timeZone: 'Europe/Lisbon' });
    expect((await admin.get(`/api/schools/${SCHOOL}/settings`)).body).toMatchObject({
      timeZone: 'Europe/Lisbon',
      changeCutoff: '13:30',
      changeApproval: 'office',
    });
    // Leaving the clock out changes nothing of it.
    const { timeZone: _, changeCutoff: __, changeApproval: ___, ...withoutClock } = valid;
    expect((await admin.put(`/api/schools/${SCHOOL}/settings`, withoutClock)).body.timeZone).toBe(
      'Europe/Lisbon',
    );
    const refused = await admin.put(`/api/schools/${SCHOOL}/settings`, {
      ...valid,
      timeZone: 'Mars/Olympus_Mons',
    });
    expect(refused.body.issues).toEqual([
      { path: 'timeZone', message: 'Time zone must be an IANA time zone name, such as America/Chicago' },
    ]);
    await admin.put(`/api/schools/${SCHOOL}/settings`, valid);
  });

  it("a new school takes its district's time zone, else America/New_York", async () => {
    const made = await district.post('/api/schools', { name: 'Zone School', districtId: 1 });
    expect(made.status).toBe(201);
    expect(made.body.timeZone).toBe('America/Chicago');
    const superAdmin = await signedIn(server.url, 'super_demo');
    const bare = (await superAdmin.post('/api/districts', { name: 'No Zone USD' })).body;
    const other = await superAdmin.post('/api/schools', { name: 'Eastern School', districtId: bare.id });
    expect(other.body.timeZone).toBe('America/New_York');
    expect((await superAdmin.get(`/api/schools/${other.body.id}/settings`)).body).toMatchObject({
      timeZone: 'America/New_York',
      changeCutoff: '14:00',
      changeApproval: 'auto',
    });
  });

  it('refuses wranglers and teachers (403), another school (404), and a sandboxed school (read-only)', async () => {
    for (const username of ['front_demo', 'back_demo', 'teacher_demo']) {
      const client = await signedIn(server.url, username);
      expect((await client.get(`/api/schools/${SCHOOL}/settings`)).status, username).toBe(403);
      expect((await client.put(`/api/schools/${SCHOOL}/settings`, valid)).status, username).toBe(403);
    }
    // Another district's school: as if it did not exist, to its district admin and to an admin of another school.
    expect((await district.get(`/api/schools/${otherSchoolId}/settings`)).status).toBe(404);
    expect((await district.put(`/api/schools/${otherSchoolId}/settings`, valid)).status).toBe(404);
    const elsewhere = await signedIn(server.url, 'elsewhere_admin');
    expect((await elsewhere.put(`/api/schools/${SCHOOL}/settings`, valid)).status).toBe(404);
    expect((await schools.get(server.db, SCHOOL))?.batchCapacity).toEqual({ car: 5, bus: 3 });
    // A sandboxed school: its own admin and its district admin read, neither writes.
    const sandboxAdmin = await signedIn(server.url, 'sbx_school_admin');
    expect((await sandboxAdmin.get(`/api/schools/${sandboxSchoolId}/settings`)).status).toBe(200);
    for (const client of [sandboxAdmin, district]) {
      const refused = await client.put(`/api/schools/${sandboxSchoolId}/settings`, valid);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(READ_ONLY);
    }
    expect((await schools.get(server.db, sandboxSchoolId))?.batchCapacity).toBeUndefined();
  });

  it('lets the district admin change their own schools', async () => {
    const changed = { ...valid, carBatchCapacity: 6 };
    expect((await district.put(`/api/schools/${SCHOOL}/settings`, changed)).body).toEqual(changed);
    expect((await admin.get(`/api/schools/${SCHOOL}/settings`)).body.carBatchCapacity).toBe(6);
    await admin.put(`/api/schools/${SCHOOL}/settings`, valid);
  });

  it('a new batch takes the capacity in force when it is made; one made before keeps its own', async () => {
    const back = await signedIn(server.url, 'back_demo');
    const active = (await back.get('/api/sessions/active')).body;
    if (active) await back.put(`/api/sessions/${active.id}/end`);
    const sessionId = (await back.post('/api/sessions', sessionBody())).body.id;
    await admin.put(`/api/schools/${SCHOOL}/settings`, {
      ...valid,
      carBatchCapacity: 3,
      busBatchCapacity: 2,
    });
    const before = (await back.post('/api/batches', { sessionId, vehicleType: 'car' })).body;
    expect(before.maxCapacity).toBe(3);
    expect((await back.post('/api/batches', { sessionId, vehicleType: 'bus' })).body.maxCapacity).toBe(2);
    await admin.put(`/api/schools/${SCHOOL}/settings`, { ...valid, carBatchCapacity: 12 });
    const after = (await back.post('/api/batches', { sessionId, vehicleType: 'car' })).body;
    expect(after.maxCapacity).toBe(12);
    const batches = (await back.get(`/api/batches/active?sessionId=${sessionId}`)).body as Array<{
      id: number;
      maxCapacity: number;
    }>;
    expect(batches.find((batch) => batch.id === before.id)?.maxCapacity).toBe(3);
    await back.put(`/api/sessions/${sessionId}/end`);
  });
});
