import { routeList } from '@curbside/api';
import { dateIn, schoolSettingsOf } from '@curbside/domain';
import { dismissalEvents, pickupSessions, schools, students } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueCar } from '../support/car-line';
import { createSchoolWithStaff, sessionBody } from '../support/fixtures';
import { type Client, signedIn, startTestServer } from '../support/server';

/**
 * The dismissal's record (issue #26): every change of a session is an event;
 * reports, the CSV and a student's history read it; nothing changes an event.
 */

let server: Awaited<ReturnType<typeof startTestServer>>;
let front: Client;
let back: Client;
let teacher: Client;
let admin: Client;
let parent: Client;
let sessionId: number;
const me: Record<string, { id: number; username: string; role: string; name: string }> = {};

/** A student whose first name a spreadsheet would run as a formula. */
const FORMULA = '=HYPERLINK("http://evil.test","Pay")';
let formulaStudentId: number;
let childCar: string;
let childId: number;

beforeAll(async () => {
  server = await startTestServer();
  [front, back, teacher, admin, parent] = await Promise.all([
    signedIn(server.url, 'front_demo'),
    signedIn(server.url, 'back_demo'),
    signedIn(server.url, 'teacher_demo'),
    signedIn(server.url, 'admin_demo'),
    signedIn(server.url, 'parent_demo'),
  ]);
  for (const [name, client] of Object.entries({ front, back, teacher, admin })) {
    const user = (await client.get('/api/me')).body;
    me[name] = { id: user.id, username: user.username, role: user.role, name: user.name };
  }
  // The name goes straight into the store: the CSV must neutralise whatever a roster holds.
  const schoolId = (await admin.get('/api/me')).body.schoolId as number;
  const created = await students.create(server.db, {
    schoolId,
    firstName: FORMULA,
    lastName: 'Doe',
    grade: '3',
    classroomId: null,
  });
  formulaStudentId = created.id;
  expect(
    (await admin.post('/api/vehicles', { number: '777', type: 'car', studentIds: [formulaStudentId] }))
      .status,
  ).toBe(201);
  [{ id: childId }] = (await parent.get('/api/parent/students')).body;
  const roster = (await teacher.get('/api/teacher/students')).body as Array<{
    id: number;
    vehicle: { number: string } | null;
  }>;
  childCar = roster.find((student) => student.id === childId)?.vehicle?.number as string;
  sessionId = (await front.post('/api/sessions', sessionBody())).body.id;
  // Six scrypt sign-ins on a shared 2-core machine.
}, 180_000);
afterAll(async () => {
  await server?.close();
});

const remove = (client: Client, id: string, body?: unknown) =>
  client.request('DELETE', `/api/queue/${id}`, body);
const csvOf = async (client: Client, id: number) => {
  const response = await fetch(new URL(`/api/sessions/${id}/report.csv`, server.url), {
    headers: { cookie: client.cookie ?? '' },
  });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
};

describe("a whole dismissal's record", () => {
  let report: any;
  const byCar = (number: string) => report.pickups.filter((p: any) => p.vehicleNumber === number);

  it('names who queued, released and completed every pickup, and how each visit ended', async () => {
    // 102 and 108 go out in a batch; teacher_demo releases 102's child first.
    const car102 = await queueCar(front, sessionId, '102');
    await queueCar(front, sessionId, '108');
    const batch = (await back.post('/api/batches', { sessionId, vehicleType: 'car' })).body;
    expect((await back.post(`/api/batches/${batch.id}/vehicles`)).status).toBe(200);
    expect((await back.post(`/api/batches/${batch.id}/vehicles`)).status).toBe(200);
    const released = await teacher.put(`/api/teacher/students/${car102.students[0]?.id}/release`);
    expect(released.status).toBe(200);
    // 102's second child and 108's were not released: the back staff are asked first, and complete anyway.
    const asked = await back.put(`/api/batches/${batch.id}`, { status: 'completed' });
    expect(asked.status).toBe(409);
    expect(asked.body.unreleased.map((child: any) => child.id)).not.toContain(car102.students[0]?.id);
    expect(new Set(asked.body.unreleased.map((child: any) => child.vehicleNumber))).toEqual(
      new Set(['102', '108']),
    );
    expect(
      (await back.put(`/api/batches/${batch.id}`, { status: 'completed', confirmUnreleased: true })).status,
    ).toBe(200);

    // The three removals, each saying what happened; a car without a body is removed.
    const formulaCar = await queueCar(front, sessionId, '777');
    const child = await queueCar(front, sessionId, childCar);
    const leaving = await queueCar(front, sessionId, '103');
    const removing = await queueCar(front, sessionId, '104');
    const silent = await queueCar(front, sessionId, '105');
    expect(
      (await remove(front, child.id, { reason: 'picked_up', confirmUnreleased: true })).body,
    ).toMatchObject({
      status: 'completed',
      exitTime: expect.any(String),
    });
    expect(
      (await remove(front, formulaCar.id, { reason: 'picked_up', confirmUnreleased: true })).status,
    ).toBe(200);
    expect((await remove(front, leaving.id, { reason: 'left' })).status).toBe(200);
    expect((await remove(back, removing.id, { reason: 'removed' })).status).toBe(200);
    expect((await remove(front, silent.id)).status).toBe(200);
    // 103 comes back: a new visit, queued again.
    const back103 = await queueCar(front, sessionId, '103');

    const answer = await admin.get(`/api/sessions/${sessionId}/report`);
    expect(answer.status).toBe(200);
    report = answer.body;
    expect(report.session).toMatchObject({ id: sessionId });

    const [first] = byCar('102');
    expect(first).toMatchObject({
      entryId: car102.id,
      vehicleType: 'car',
      outcome: 'picked_up',
      queuedBy: me.front,
      completedBy: me.back,
      pickedUpAt: expect.any(String),
      batchNumber: batch.batchNumber,
    });
    expect(first.students[0]).toMatchObject({
      id: car102.students[0]?.id,
      firstName: car102.students[0]?.firstName,
      classroom: expect.stringMatching(/^Room /),
      releasedBy: me.teacher,
      releasedAt: expect.any(String),
      completedWithoutRelease: false,
    });
    // 102's second child was not released: recorded so, for that child only.
    expect(first.students[1]).toMatchObject({ releasedAt: null, completedWithoutRelease: true });
    expect(Date.parse(first.queuedAt)).toBeLessThanOrEqual(Date.parse(first.students[0].releasedAt));
    expect(Date.parse(first.students[0].releasedAt)).toBeLessThanOrEqual(Date.parse(first.pickedUpAt));
    expect(byCar('108')[0]).toMatchObject({ outcome: 'picked_up', completedBy: me.back });
    expect(
      byCar('108')[0].students.every((s: any) => s.releasedBy === null && s.completedWithoutRelease),
    ).toBe(true);
    expect(byCar(childCar)[0]).toMatchObject({ outcome: 'picked_up', completedBy: me.front });

    // Removed and left: in the report with that outcome and no pickup time.
    expect(byCar('104')[0]).toMatchObject({
      outcome: 'removed',
      queuedBy: me.front,
      pickedUpAt: null,
      completedBy: null,
      endedAt: expect.any(String),
    });
    expect(byCar('105')[0]).toMatchObject({ outcome: 'removed', pickedUpAt: null });
    const visits103 = byCar('103');
    expect(visits103.map((p: any) => p.outcome)).toEqual(['left', null]);
    expect(visits103[0].pickedUpAt).toBeNull();
    expect(visits103[1]).toMatchObject({ entryId: back103.id, queuedBy: me.front });

    expect(report.summary).toMatchObject({
      cars: 8,
      buses: 0,
      batches: 1,
      firstQueuedAt: first.queuedAt,
      medianWaitSeconds: expect.any(Number),
      p90WaitSeconds: expect.any(Number),
    });
    expect(report.summary.studentsPickedUp).toBeGreaterThanOrEqual(4);

    // The raw record: oldest first, the requeue named as one.
    const events = (await admin.get(`/api/sessions/${sessionId}/events`)).body;
    const kinds = events.items.map((event: any) => event.kind);
    expect(kinds[0]).toBe('session_started');
    expect(kinds).toEqual(
      expect.arrayContaining([
        'vehicle_queued',
        'batched',
        'student_released',
        'picked_up',
        'left',
        'removed',
        'vehicle_requeued',
      ]),
    );
    const ats = events.items.map((event: any) => event.at);
    expect([...ats].sort()).toEqual(ats);
    const removedEvent = events.items.find(
      (e: any) => e.kind === 'removed' && e.entries[0].id === removing.id,
    );
    expect(removedEvent.actor).toEqual(me.back);
  });

  it("shows the parent picked_up with the time after 'Child picked up'", async () => {
    const status = (await parent.get('/api/parent/students/status')).body;
    expect(status.find((s: any) => s.id === childId)).toMatchObject({
      status: 'picked_up',
      pickupTime: expect.any(String),
    });
  });

  it('exports the pickups as CSV, one row per student, with a formula in a name neutralised', async () => {
    const csv = await csvOf(admin, sessionId);
    expect(csv.status).toBe(200);
    expect(csv.type).toMatch(/^text\/csv/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toMatch(/^Vehicle,Type,Outcome,Student ID,First Name/);
    const row = lines.find((line) => line.includes('HYPERLINK')) as string;
    expect(row).toContain(`"'=HYPERLINK(""http://evil.test"",""Pay"")"`);
    expect(row).not.toMatch(/,"?=HYPERLINK/);
    expect(lines.some((line) => line.startsWith('104,car,removed'))).toBe(true);
  });

  it("lists the student's pickups with who released them", async () => {
    const avaId = byCar('102')[0].students[0].id;
    const answer = await teacher.get(`/api/students/${avaId}/pickups`);
    expect(answer.status).toBe(200);
    expect(answer.body[0]).toMatchObject({
      sessionId,
      vehicleNumber: '102',
      releasedBy: me.teacher,
      completedBy: me.back,
      pickedUpAt: expect.any(String),
    });
    expect((await teacher.get('/api/students/99999999/pickups')).status).toBe(404);
  });

  it('lists the session with its summary, newest first, in pages', async () => {
    const list = (await admin.get('/api/sessions')).body;
    expect(list.next).toBeNull();
    expect(list.items[0]).toMatchObject({
      id: sessionId,
      summary: { cars: 8, studentsPickedUp: expect.any(Number), medianWaitSeconds: expect.any(Number) },
    });
  });
});

describe("a session's alerts in the record", () => {
  it('records who raised, acknowledged and dismissed an alert, in that order', async () => {
    const raised = await front.post('/api/alerts', { sessionId, type: 'help', location: 'Back Queue' });
    expect(raised.status).toBe(200);
    const alertId = raised.body.alert.id as number;
    expect((await teacher.post(`/api/alerts/${alertId}/acknowledge`)).status).toBe(200);
    // A second press is the same acknowledgement: it records nothing more.
    expect((await teacher.post(`/api/alerts/${alertId}/acknowledge`)).status).toBe(200);
    expect((await admin.put(`/api/alerts/${alertId}/dismiss`)).status).toBe(200);
    const events = (await dismissalEvents.ofSession(server.db, sessionId)) as Array<{
      kind: string;
      actor: unknown;
      alert?: { id: number };
    }>;
    const ofAlert = events.filter((event) => event.alert?.id === alertId);
    expect(ofAlert.map((event) => [event.kind, event.actor])).toEqual([
      ['alert_raised', me.front],
      ['alert_acknowledged', me.teacher],
      ['alert_dismissed', me.admin],
    ]);
  });
});

describe('the removal reason', () => {
  it('answers 400 naming the field for any other value', async () => {
    const car = await queueCar(front, sessionId, '106');
    for (const body of [{ reason: 'stolen' }, { reason: 1 }, { reason: 'removed', extra: true }]) {
      const answer = await remove(front, car.id, body);
      expect(answer.status).toBe(400);
      expect(answer.body.issues.map((issue: any) => issue.path).join()).toMatch(/reason|^$/);
    }
    const bad = await remove(front, car.id, { reason: 'stolen' });
    expect(bad.body.message).toBe('reason must be picked_up, left or removed');
    // Nothing happened to the car.
    expect((await remove(front, car.id, { reason: 'left' })).status).toBe(200);
  });
});

describe('the record cannot be changed', () => {
  it('offers no route that updates or deletes an event, and keeps every event after the session ends', async () => {
    const before = await dismissalEvents.ofSession(server.db, sessionId);
    const event = before[0] as { id: string };
    for (const method of ['PUT', 'PATCH', 'DELETE', 'POST']) {
      for (const path of [
        `/api/sessions/${sessionId}/events`,
        `/api/sessions/${sessionId}/events/${encodeURIComponent(event.id)}`,
        `/api/sessions/${sessionId}/report`,
      ]) {
        const answer = await admin.request(method, path, {});
        expect([404, 405], `${method} ${path}`).toContain(answer.status);
      }
    }
    // The route table reads the record only: no route of the record's paths takes another method.
    const recordRoutes = routeList.filter((route) =>
      /^\/api\/sessions\/\{id\}\/(events|report)/.test(route.path),
    );
    expect(recordRoutes.map((route) => `${route.method} ${route.path}`).sort()).toEqual([
      'GET /api/sessions/{id}/events',
      'GET /api/sessions/{id}/report',
      'GET /api/sessions/{id}/report.csv',
    ]);
    expect((await admin.put(`/api/sessions/${sessionId}/end`)).status).toBe(200);
    const after = await dismissalEvents.ofSession(server.db, sessionId);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.at(-1)).toMatchObject({ kind: 'session_ended', actor: me.admin });
  });
});

describe('who may read the record', () => {
  it("answers 403 to queue staff and teachers asking for a report, 404 for another school's session or student", async () => {
    for (const client of [front, back, teacher]) {
      expect((await client.get(`/api/sessions/${sessionId}/report`)).status).toBe(403);
      expect((await client.get(`/api/sessions/${sessionId}/events`)).status).toBe(403);
      expect((await csvOf(client, sessionId)).status).toBe(403);
    }
    await createSchoolWithStaff(server.db, 'pine');
    const pineAdmin = await signedIn(server.url, 'pine_school_admin');
    const pineTeacher = await signedIn(server.url, 'pine_teacher');
    expect((await pineAdmin.get(`/api/sessions/${sessionId}/report`)).status).toBe(404);
    expect((await pineAdmin.get(`/api/sessions/${sessionId}/events`)).status).toBe(404);
    expect((await csvOf(pineAdmin, sessionId)).status).toBe(404);
    expect((await pineAdmin.get('/api/sessions')).body.items).toEqual([]);
    expect((await pineTeacher.get(`/api/students/${formulaStudentId}/pickups`)).status).toBe(404);
    // The district's admin and the super admin see it.
    for (const name of ['district_demo', 'super_demo']) {
      const client = await signedIn(server.url, name);
      expect((await client.get(`/api/sessions/${sessionId}/report`)).status).toBe(200);
    }
    // Four scrypt sign-ins on a shared machine.
  }, 120_000);

  it("reports the district's dismissals per school over a date range", async () => {
    const district = await signedIn(server.url, 'district_demo');
    const { districtId } = (await district.get('/api/me')).body;
    const today = dateIn('America/Chicago');
    const answer = await district.get(`/api/districts/${districtId}/dismissals?from=${today}&to=${today}`);
    expect(answer.status).toBe(200);
    const lincoln = answer.body.find((row: any) => row.schoolName === 'Lincoln Elementary');
    expect(lincoln).toMatchObject({ sessions: 1, cars: 9, medianWaitSeconds: expect.any(Number) });
    const bad = await district.get(`/api/districts/${districtId}/dismissals?from=${today}&to=2000-01-01`);
    expect(bad.status).toBe(400);
  }, 60_000);

  const rec = { actor: { kind: 'schedule' as const }, retentionDays: 400 };
  it("counts a dismissal on the day it ran in the school's own time zone, not the UTC day", async () => {
    const district = await signedIn(server.url, 'district_demo');
    const school = await createSchoolWithStaff(server.db, 'late');
    await schools.updateSettings(server.db, school.id, {
      ...schoolSettingsOf({}),
      timeZone: 'America/Los_Angeles',
    });
    // 04:30 UTC on March 11 is 9:30 PM on March 10 in Los Angeles.
    const session = await pickupSessions.create(
      server.db,
      {
        schoolId: school.id,
        name: 'Evening Pickup',
        type: 'afternoon_pickup',
        startTime: '2026-03-11T04:30:00.000Z',
        endTime: '2026-03-11T05:30:00.000Z',
        notes: '',
      },
      rec,
    );
    await pickupSessions.end(server.db, session, rec, '2026-03-11T05:00:00.000Z');
    const row = async (day: string) =>
      (await district.get(`/api/districts/1/dismissals?from=${day}&to=${day}`)).body.find(
        (found: { schoolId: number }) => found.schoolId === school.id,
      );
    expect(await row('2026-03-10')).toMatchObject({ sessions: 1 });
    expect(await row('2026-03-11')).toMatchObject({ sessions: 0 });
  }, 60_000);
});
