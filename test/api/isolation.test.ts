import { authSessions, districts, schools } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchoolWithStaff, createStaff, sessionBody } from '../support/fixtures';
import { Client, signedIn, startTestServer } from '../support/server';

/**
 * Tenancy: staff of one school never read or change another school's
 * batches or alerts, and a district admin never reads another district.
 * Another tenant's records answer 404, as if they did not exist.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
/** Lincoln Elementary (the demo school) runs a session with a loading batch and an active alert. */
let lincoln: Client;
/** Front queue staff of Maple School, in the same district. */
let maple: Client;
let sessionId: number;
let batchId: number;
let alertId: number;
beforeAll(async () => {
  server = await startTestServer();
  lincoln = await signedIn(server.url, 'front_demo');
  await createSchoolWithStaff(server.db, 'maple');
  maple = await signedIn(server.url, 'maple_front_queue_wrangler');
  sessionId = (await lincoln.post('/api/sessions', sessionBody())).body.id;
  for (const vehicleNumber of ['101', '102']) {
    await lincoln.post('/api/queue', { sessionId, vehicleNumber, vehicleType: 'car' });
  }
  batchId = (await lincoln.post('/api/batches', { sessionId, vehicleType: 'car' })).body.id;
  await lincoln.post(`/api/batches/${batchId}/vehicles`);
  alertId = (await lincoln.post('/api/alerts', { sessionId, type: 'help', location: 'Front Queue' })).body
    .alert.id;
});
afterAll(async () => {
  await server?.close();
});

/** What Lincoln's back queue screen shows: its loading batches and the cars waiting for one. */
const lincolnBatches = async () => ({
  batches: (await lincoln.get(`/api/batches/active?sessionId=${sessionId}`)).body,
  inBatch: (await lincoln.get(`/api/batches/${batchId}/vehicles`)).body.map((e: any) => e.vehicleNumber),
  queue: (await lincoln.get(`/api/queue?sessionId=${sessionId}`)).body.map((e: any) => [
    e.vehicleNumber,
    e.batchId,
  ]),
});
const lincolnAlerts = async () => (await lincoln.get(`/api/alerts?sessionId=${sessionId}`)).body;

describe("another school's staff and the batches", () => {
  it('cannot see the loading batches of the session', async () => {
    const answer = await maple.get(`/api/batches/active?sessionId=${sessionId}`);
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ message: 'Session not found' });
  });

  it('cannot see the completed batches of the session', async () => {
    const answer = await maple.get(`/api/batches?sessionId=${sessionId}&status=completed`);
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ message: 'Session not found' });
  });

  it('cannot start a batch in the session', async () => {
    const before = await lincolnBatches();
    const answer = await maple.post('/api/batches', { sessionId, vehicleType: 'car' });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ message: 'Session not found' });
    expect(await lincolnBatches()).toEqual(before);
  });

  it('cannot complete a batch', async () => {
    const before = await lincolnBatches();
    const answer = await maple.put(`/api/batches/${batchId}`, {
      status: 'completed',
      confirmUnreleased: true,
    });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ message: 'Batch not found' });
    expect(await lincolnBatches()).toEqual(before);
    expect(before.batches).toEqual([
      expect.objectContaining({ id: batchId, status: 'loading', currentCount: 1 }),
    ]);
  });

  it('cannot see the vehicles in a batch', async () => {
    const answer = await maple.get(`/api/batches/${batchId}/vehicles`);
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ message: 'Batch not found' });
  });

  it('cannot add a waiting car to a batch', async () => {
    const before = await lincolnBatches();
    const answer = await maple.post(`/api/batches/${batchId}/vehicles`);
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ message: 'Batch not found' });
    expect(await lincolnBatches()).toEqual(before);
    expect(before.queue).toContainEqual(['102', null]);
  });
});

describe("another school's staff and the queue", () => {
  it("cannot read the session's queue, also right after the school's own screens read it", async () => {
    // The school's reads teach the instance whose the session is (issue 31): that knowledge must refuse Maple too.
    for (let read = 0; read < 2; read++) {
      expect((await lincoln.get(`/api/queue?sessionId=${sessionId}`)).status).toBe(200);
      const answer = await maple.get(`/api/queue?sessionId=${sessionId}`);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ message: 'Session not found' });
    }
    expect((await maple.get('/api/queue?sessionId=999999')).status).toBe(404);
  });

  it("cannot read it with a sign-in whose token names one of the school's own staff", async () => {
    // A poll's queue is read with the caller's sign-in, for the user the token names (issue 33):
    // the sign-in decides whose the token is, and Maple's must get nothing read for Lincoln's.
    expect((await lincoln.get(`/api/queue?sessionId=${sessionId}`)).status).toBe(200);
    const [lincolnId, mapleId] = await Promise.all(
      [lincoln, maple].map(async (client) => (await client.get('/api/me')).body.id as number),
    );
    const token = `${lincolnId}-a-token-whose-sign-in-is-maple-s-0123456789`;
    await authSessions.put(server.db, token, {
      userId: mapleId as number,
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    const named = new Client(server.url);
    named.cookie = `curbside_session=${token}`;
    expect((await named.get('/api/me')).body).toMatchObject({ id: mapleId });
    for (let read = 0; read < 2; read++) {
      const answer = await named.get(`/api/queue?sessionId=${sessionId}`);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ message: 'Session not found' });
    }
    // Nor queue a car in it: a car's first reads go with the sign-in's too.
    const queued = await named.post('/api/queue', { sessionId, vehicleNumber: '103', vehicleType: 'car' });
    expect(queued).toMatchObject({ status: 404, body: { message: 'Session not found' } });
    const line = (await lincoln.get(`/api/queue?sessionId=${sessionId}`)).body as { vehicleNumber: string }[];
    expect(line.map((entry) => entry.vehicleNumber)).not.toContain('103');
    // Nor its alerts, nor the school's (which Lincoln's own sign-in reads).
    expect(((await lincoln.get('/api/alerts')).body as { id: number }[]).map((alert) => alert.id)).toContain(
      alertId,
    );
    expect((await named.get(`/api/alerts?sessionId=${sessionId}`)).status).toBe(404);
    const schoolAlerts = (await named.get('/api/alerts')).body as { id: number }[];
    expect(schoolAlerts.map((alert) => alert.id)).not.toContain(alertId);
    // A token naming Lincoln's staff member with no sign-in behind it reads nothing either.
    const forged = new Client(server.url);
    forged.cookie = `curbside_session=${lincolnId}-no-sign-in-behind-this-token-0123456789`;
    expect((await forged.get(`/api/queue?sessionId=${sessionId}`)).status).toBe(401);
  });
});

describe("another school's staff and the alerts", () => {
  it('cannot see the alerts of the session', async () => {
    const answer = await maple.get(`/api/alerts?sessionId=${sessionId}`);
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ message: 'Session not found' });
  });

  it('cannot raise or toggle an alert in the session', async () => {
    const before = await lincolnAlerts();
    const answer = await maple.post('/api/alerts', { sessionId, type: 'help', location: 'Front Queue' });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ message: 'Session not found' });
    expect(await lincolnAlerts()).toEqual(before);
  });

  it('cannot dismiss an alert', async () => {
    const answer = await maple.put(`/api/alerts/${alertId}/dismiss`);
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ message: 'Alert not found' });
    expect(await lincolnAlerts()).toEqual([expect.objectContaining({ id: alertId, status: 'active' })]);
  });

  it('does not dismiss the alert by pressing the same alert at the same place in their own session', async () => {
    const mapleSession = (await maple.post('/api/sessions', sessionBody())).body.id;
    const answer = await maple.post('/api/alerts', {
      sessionId: mapleSession,
      type: 'help',
      location: 'Front Queue',
    });
    expect(answer.body).toMatchObject({ dismissed: false, alert: { status: 'active' } });
    expect(await lincolnAlerts()).toEqual([expect.objectContaining({ id: alertId, status: 'active' })]);
  });
});

describe('a district admin of another district', () => {
  let oakAdmin: Client;
  let oakDistrictId: number;
  let oakSchoolId: number;
  beforeAll(async () => {
    const oak = await districts.create(server.db, {
      name: 'Oak Valley District',
      active: true,
      sandbox: false,
    });
    oakDistrictId = oak.id;
    oakSchoolId = (
      await schools.create(server.db, {
        name: 'Oak School',
        districtId: oak.id,
        active: true,
        sandbox: false,
      })
    ).id;
    await createStaff(server.db, {
      username: 'oak_district_admin',
      role: 'district_admin',
      schoolId: null,
      districtId: oak.id,
    });
    oakAdmin = await signedIn(server.url, 'oak_district_admin');
  });

  it('reads their own district but not the demo district', async () => {
    expect((await oakAdmin.get(`/api/districts/${oakDistrictId}`)).status).toBe(200);
    const answer = await oakAdmin.get('/api/districts/1');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ message: 'District not found' });
  });

  it('reads a school of their own district but not one of the demo district', async () => {
    expect((await oakAdmin.get(`/api/schools/${oakSchoolId}`)).status).toBe(200);
    const answer = await oakAdmin.get('/api/schools/1');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ message: 'School not found' });
  });

  it('sees only the staff of their own district', async () => {
    const usernames = (await oakAdmin.get('/api/users')).body.map((user: any) => user.username);
    expect(usernames).toContain('oak_district_admin');
    expect(usernames).not.toContain('district_demo');
    expect(usernames).not.toContain('front_demo');
    expect(usernames).not.toContain('maple_front_queue_wrangler');
  });
});
