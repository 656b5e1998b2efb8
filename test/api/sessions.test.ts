import { pickupSessions } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchoolWithStaff, sessionBody } from '../support/fixtures';
import { Client, signedIn, startTestServer } from '../support/server';

/** The record's actor and retention for changes this test makes straight in the store. */
const rec = { actor: { kind: 'schedule' as const }, retentionDays: 400 };

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('pickup sessions', () => {
  it('starts a session, shows it as active and in the list, refuses a second one, then ends it', async () => {
    const front = await signedIn(server.url, 'front_demo');
    expect((await front.get('/api/sessions/active')).body).toBeNull();

    const created = await front.post('/api/sessions', { ...sessionBody(), notes: 'Rain plan' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Afternoon Pickup',
      type: 'afternoon_pickup',
      status: 'active',
      notes: 'Rain plan',
    });

    const teacher = await signedIn(server.url, 'teacher_demo');
    expect((await teacher.get('/api/sessions/active')).body.id).toBe(created.body.id);

    const second = await teacher.post('/api/sessions', sessionBody());
    expect(second.status).toBe(409);
    expect(second.body.message).toBe(
      'A pickup session is already active for this school. End it before starting a new one.',
    );

    // Front queue staff cannot end the school's dismissal; back queue staff and above can.
    const refused = await front.put(`/api/sessions/${created.body.id}/end`);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("You don't have permission to do this.");
    const ended = await teacher.put(`/api/sessions/${created.body.id}/end`);
    expect(ended.status).toBe(200);
    expect(ended.body.status).toBe('ended');
    expect((await front.get('/api/sessions/active')).body).toBeNull();
    expect((await teacher.put(`/api/sessions/${created.body.id}/end`)).status).toBe(409);

    const list = await front.get('/api/sessions');
    expect(list.body.items.map((s: { id: number }) => s.id)).toContain(created.body.id);
  });

  it('allows exactly one of two simultaneous starts', async () => {
    const a = await signedIn(server.url, 'front_demo');
    const b = await signedIn(server.url, 'back_demo');
    const answers = await Promise.all([
      a.post('/api/sessions', sessionBody()),
      b.post('/api/sessions', sessionBody()),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    const active = (await a.get('/api/sessions/active')).body;
    await b.put(`/api/sessions/${active.id}/end`);
  });

  it('answers the session form messages, and refuses an end before the start', async () => {
    const front = await signedIn(server.url, 'front_demo');
    const empty = await front.post('/api/sessions', {
      name: '',
      type: 'afternoon_pickup',
      startTime: '',
      endTime: '',
    });
    expect(empty.status).toBe(400);
    expect(empty.body.issues.map((i: { message: string }) => i.message)).toEqual(
      expect.arrayContaining(['Session name is required', 'Start time is required', 'End time is required']),
    );
    const backwards = await front.post('/api/sessions', sessionBody(0, -60_000));
    expect(backwards.status).toBe(400);
    expect(backwards.body.message).toBe('End time must be after start time');
  });

  it("keeps each school's sessions to its own staff", async () => {
    const other = await createSchoolWithStaff(server.db, 'oak');
    const oakStaff = await signedIn(server.url, 'oak_front_queue_wrangler');
    const oakSession = (await oakStaff.post('/api/sessions', sessionBody())).body;
    expect(oakSession.schoolId).toBe(other.id);

    const lincolnAdmin = await signedIn(server.url, 'admin_demo');
    expect((await lincolnAdmin.get('/api/sessions/active')).body).toBeNull();
    expect(
      (await lincolnAdmin.get('/api/sessions')).body.items.map((s: { id: number }) => s.id),
    ).not.toContain(oakSession.id);
    const foreignEnd = await lincolnAdmin.put(`/api/sessions/${oakSession.id}/end`);
    expect(foreignEnd.status).toBe(404);
    expect((await lincolnAdmin.get(`/api/schools/${other.id}`)).status).toBe(404);
    expect((await oakStaff.get('/api/sessions/active')).body.status).toBe('active');
  });

  it('auto-ends only sessions whose end time has passed', async () => {
    const pine = await createSchoolWithStaff(server.db, 'pine');
    const elm = await createSchoolWithStaff(server.db, 'elm');
    const pineSession = await pickupSessions.create(
      server.db,
      {
        schoolId: pine.id,
        name: 'Morning Dropoff',
        type: 'morning_dropoff',
        startTime: new Date(Date.now() - 3 * 3_600_000).toISOString(),
        endTime: new Date(Date.now() - 60_000).toISOString(),
        notes: null,
      },
      rec,
    );
    const elmSession = (
      await (await signedIn(server.url, 'elm_teacher')).post('/api/sessions', sessionBody())
    ).body;

    const { handler } = await import('@curbside/functions/scheduled/end-sessions');
    const result = await handler();
    expect(result.ended).toBeGreaterThanOrEqual(1);

    expect((await pickupSessions.get(server.db, pineSession.id))?.status).toBe('ended');
    expect((await pickupSessions.get(server.db, elmSession.id))?.status).toBe('active');
    expect(elm.id).not.toBe(pine.id);
  });

  it('lets a new session start when the previous one ran past its end before the auto-end ran', async () => {
    const birch = await createSchoolWithStaff(server.db, 'birch');
    await pickupSessions.create(
      server.db,
      {
        schoolId: birch.id,
        name: 'Morning Dropoff',
        type: 'morning_dropoff',
        startTime: new Date(Date.now() - 3 * 3_600_000).toISOString(),
        endTime: new Date(Date.now() - 1_000).toISOString(),
        notes: null,
      },
      rec,
    );
    const staff = await signedIn(server.url, 'birch_front_queue_wrangler');
    expect((await staff.get('/api/sessions/active')).body).toBeNull();
    expect((await staff.post('/api/sessions', sessionBody())).status).toBe(201);
  });

  it('refuses every change in a sandboxed school, even from its admin', async () => {
    await createSchoolWithStaff(server.db, 'sandy', true);
    const admin = await signedIn(server.url, 'sandy_school_admin');
    const answer = await admin.post('/api/sessions', sessionBody());
    expect(answer.status).toBe(403);
    expect(answer.body.message).toMatch(/sandbox mode/);
    expect((await admin.get('/api/sessions/active')).status).toBe(200);
  });

  it('refuses the next change once the school is switched to sandbox, from staff who just changed something', async () => {
    // The instance knows where these staff belong from their last change (issue 33); the switch must still hold at once.
    await createSchoolWithStaff(server.db, 'switchy');
    const admin = await signedIn(server.url, 'switchy_school_admin');
    const superAdmin = await signedIn(server.url, 'super_demo');
    const started = await admin.post('/api/sessions', sessionBody());
    expect(started.status).toBe(201);
    const schoolId = started.body.schoolId as number;
    expect((await superAdmin.put(`/api/schools/${schoolId}/sandbox`, { sandbox: true })).status).toBe(200);
    const refused = await admin.put(`/api/sessions/${started.body.id}/end`);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/sandbox mode/);
    expect((await superAdmin.put(`/api/schools/${schoolId}/sandbox`, { sandbox: false })).status).toBe(200);
    expect((await admin.put(`/api/sessions/${started.body.id}/end`)).status).toBe(200);
  });

  it('answers 401 to a signed-out caller', async () => {
    expect((await new Client(server.url).get('/api/sessions/active')).status).toBe(401);
  });
});
