import { instantIn } from '@curbside/domain';
import { DEMO_TIME_ZONE } from '@curbside/local/seed';
import { parentLinks, type Student, students, vehicles } from '@curbside/store';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSchoolWithStaff, createStaff, parentThroughInvite } from '../support/fixtures';
import { type Client, signedIn, startTestServer } from '../support/server';

/**
 * Every way home (issue 51): programs, weekly plans, dated changes from
 * families and the office, the school's cutoff in its own time zone, today's
 * plan, and the record. The school's clock is set by faking the server's
 * (the tests and the laptop runtime share a process): the week of Monday
 * 2026-11-23 in Chicago, the demo school's zone.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Client;
let front: Client;
let roster: Student[];
let buses: Array<{ id: number; number: string }>;

beforeAll(async () => {
  server = await startTestServer();
  [admin, front] = await Promise.all([
    signedIn(server.url, 'admin_demo'),
    signedIn(server.url, 'front_demo'),
  ]);
  roster = await students.listBySchool(server.db, 1);
  buses = await vehicles.buses(server.db, 1);
});
afterAll(async () => {
  await server?.close();
});
afterEach(async () => {
  vi.useRealTimers();
  await admin.put('/api/schools/1/settings', {
    ...(await admin.get('/api/schools/1/settings')).body,
    ...CLOCK,
  });
});

const CLOCK = { timeZone: DEMO_TIME_ZONE, changeCutoff: '14:00', changeApproval: 'auto' };
const setClock = async (fields: Partial<typeof CLOCK>) => {
  const settings = (await admin.get('/api/schools/1/settings')).body;
  expect((await admin.put('/api/schools/1/settings', { ...settings, ...fields })).status).toBe(200);
};

/** The server's clock at a wall-clock time of the school (it keeps running from there). */
const schoolTimeIs = (date: string, time: string, timeZone = DEMO_TIME_ZONE) => {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(instantIn(timeZone, date, time));
};
const WEDNESDAY = '2026-11-25';
const THURSDAY = '2026-11-26';

let accounts = 0;
/** A new parent following `student`, through an invite. */
const parentOf = async (student: Student) => {
  accounts += 1;
  return parentThroughInvite(server.url, admin, student.id, `ways_parent_${accounts}`);
};
const child = (i: number) => roster[i + 20] as Student;

/** A parent's request that `student` walks home on `date`: the change as answered. */
const askWalking = async (parent: Client, student: Student, date: string) =>
  (await parent.post('/api/dismissal-changes', { studentId: student.id, date, way: { mode: 'walker' } })).body
    .change;

/** A student's entry in a day's plan, as the office reads it. */
const planOf = async (student: Student, date: string, client = admin) => {
  const answer = await client.get(`/api/dismissal-plan?date=${date}`);
  expect(answer.status).toBe(200);
  return answer.body.students.find((entry: { studentId: number }) => entry.studentId === student.id);
};

describe('programs', () => {
  it('are made and changed by the office, read by every staff role; a planned one is deactivated, not deleted', async () => {
    const made = await admin.post('/api/programs', {
      name: 'Kids Club',
      kind: 'after_care',
      location: 'Gym',
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: 'Kids Club', kind: 'after_care', location: 'Gym', active: true });
    const chess = (await admin.post('/api/programs', { name: 'Chess Club', kind: 'activity' })).body;
    expect((await front.get('/api/programs')).body.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['Kids Club', 'Chess Club']),
    );
    const twice = await admin.post('/api/programs', { name: 'kids club', kind: 'activity' });
    expect({ status: twice.status, body: twice.body }).toEqual({
      status: 409,
      body: { message: 'A program named kids club already exists' },
    });
    const renamed = await admin.put(`/api/programs/${chess.id}`, { name: 'Chess & Go', kind: 'activity' });
    expect(renamed.body).toMatchObject({ name: 'Chess & Go', location: null, active: true });
    // Chess is in nobody's plan: gone. Kids Club is in one: kept, deactivated.
    const kid = child(0);
    const plan = {
      mon: { mode: 'program', programId: made.body.id },
      tue: { mode: 'car' },
      wed: { mode: 'car' },
    };
    expect(
      (
        await admin.put(`/api/students/${kid.id}/dismissal-plan`, {
          plan: { ...plan, thu: { mode: 'walker' }, fri: { mode: 'car' } },
        })
      ).status,
    ).toBe(200);
    expect((await admin.request('DELETE', `/api/programs/${chess.id}`)).body).toMatchObject({
      deleted: true,
    });
    const kept = await admin.request('DELETE', `/api/programs/${made.body.id}`);
    expect(kept.body).toMatchObject({ deleted: false, program: { id: made.body.id, active: false } });
    const list = (await front.get('/api/programs')).body as Array<{ id: number; active: boolean }>;
    expect(list.find((p) => p.id === chess.id)).toBeUndefined();
    expect(list.find((p) => p.id === made.body.id)?.active).toBe(false);
    // A deactivated program can be planned no more.
    const refused = await admin.put(`/api/students/${child(1).id}/dismissal-plan`, {
      plan: { ...plan, thu: { mode: 'car' }, fri: { mode: 'car' } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.issues).toEqual([
      { path: 'plan', message: 'That program is not offered by the school' },
    ]);
    // Back on offer.
    expect(
      (await admin.put(`/api/programs/${made.body.id}`, { ...made.body, active: true })).body.active,
    ).toBe(true);
  });

  it("another school's program is 404", async () => {
    await createSchoolWithStaff(server.db, 'ways_other');
    const other = await signedIn(server.url, 'ways_other_school_admin');
    const mine = (await admin.post('/api/programs', { name: 'Art', kind: 'activity' })).body;
    expect((await other.put(`/api/programs/${mine.id}`, { name: 'Mine now', kind: 'activity' })).status).toBe(
      404,
    );
    expect((await other.request('DELETE', `/api/programs/${mine.id}`)).status).toBe(404);
    expect((await other.get('/api/programs')).body).toEqual([]);
  });
});

describe('weekly plans', () => {
  it('a student without a plan is a car rider every day; the office sets a week of buses, walking and programs', async () => {
    const kid = child(2);
    expect((await front.get(`/api/students/${kid.id}/dismissal-plan`)).body).toMatchObject({
      isDefault: true,
      plan: { mon: { mode: 'car' }, fri: { mode: 'car' } },
    });
    const bus = buses[2] as { id: number };
    const week = {
      mon: { mode: 'bus', vehicleId: bus.id },
      tue: { mode: 'bus', vehicleId: bus.id },
      wed: { mode: 'walker' },
      thu: { mode: 'bus', vehicleId: bus.id },
      fri: { mode: 'car' },
    };
    const saved = await admin.put(`/api/students/${kid.id}/dismissal-plan`, { plan: week });
    expect(saved.body).toEqual({ plan: week, isDefault: false });
    expect((await front.get(`/api/students/${kid.id}/dismissal-plan`)).body.plan).toEqual(week);
    expect((await planOf(kid, WEDNESDAY)).way).toEqual({ mode: 'walker' });
    expect(await planOf(kid, '2026-11-23')).toEqual({ studentId: kid.id, way: week.mon, source: 'default' });
    // The roster's row carries it.
    const rows = (await admin.get(`/api/students?search=${encodeURIComponent(kid.firstName)}`)).body.items;
    expect(rows.find((row: { id: number }) => row.id === kid.id).dismissalPlan).toEqual(week);
    // In the student's record, with its actor, before and after.
    const history = (await admin.get(`/api/students/${kid.id}/way-history`)).body;
    expect(history[0]).toMatchObject({
      kind: 'plan_set',
      actor: { username: 'admin_demo', role: 'school_admin' },
      plan: { before: null, after: week },
    });
  });

  it("refuses a bus that is not the school's, and another school's student", async () => {
    const kid = child(3);
    const car = { mode: 'car' };
    const week = (mon: unknown) => ({ plan: { mon, tue: car, wed: car, thu: car, fri: car } });
    const foreign = await admin.put(
      `/api/students/${kid.id}/dismissal-plan`,
      week({ mode: 'bus', vehicleId: 999999 }),
    );
    expect(foreign.status).toBe(400);
    expect(foreign.body.issues).toEqual([
      { path: 'plan', message: 'That bus is not one of the school’s buses' },
    ]);
    const unknown = await admin.put(`/api/students/${kid.id}/dismissal-plan`, week({ mode: 'boat' }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.issues[0].path).toBe('plan');
    const other = await signedIn(server.url, 'ways_other_school_admin').catch(async () => {
      await createSchoolWithStaff(server.db, 'ways_other');
      return signedIn(server.url, 'ways_other_school_admin');
    });
    expect((await other.put(`/api/students/${kid.id}/dismissal-plan`, week(car))).status).toBe(404);
  });
});

describe("a family's change", () => {
  it('before the cutoff is approved at once (auto) and is today’s way home', async () => {
    schoolTimeIs(WEDNESDAY, '10:00');
    const kid = child(4);
    const parent = await parentOf(kid);
    const asked = await parent.post('/api/dismissal-changes', {
      studentId: kid.id,
      date: WEDNESDAY,
      way: { mode: 'walker' },
      note: 'Grandma walks him home',
    });
    expect(asked.status).toBe(201);
    expect(asked.body.change).toMatchObject({
      studentId: kid.id,
      date: WEDNESDAY,
      way: { mode: 'walker' },
      status: 'approved',
      note: 'Grandma walks him home',
      requestedBy: { name: 'Pat ways_parent_1', role: 'parent' },
      createdAt: expect.any(String),
    });
    expect(await planOf(kid, WEDNESDAY)).toEqual({
      studentId: kid.id,
      way: { mode: 'walker' },
      source: 'change',
      changeId: asked.body.change.id,
      // Issue 52: the way the week gave that day, and the change's note (the teacher's "Changed today" badge).
      usual: { mode: 'car' },
      note: 'Grandma walks him home',
    });
    // The family sees it on their dashboard.
    const mine = (await parent.get('/api/parent/ways-home')).body;
    expect(mine.children).toEqual([
      {
        studentId: kid.id,
        schoolId: 1,
        today: expect.objectContaining({ way: { mode: 'walker' }, source: 'change' }),
      },
    ]);
    expect(mine.schools[0]).toMatchObject({ today: WEDNESDAY, changeCutoff: '14:00', pastCutoff: false });
  });

  it('with office approval is pending, not in the plan, until the office approves it', async () => {
    await setClock({ changeApproval: 'office' });
    schoolTimeIs(WEDNESDAY, '09:00');
    const kid = child(5);
    const parent = await parentOf(kid);
    const asked = await parent.post('/api/dismissal-changes', {
      studentId: kid.id,
      date: WEDNESDAY,
      way: { mode: 'bus', vehicleId: (buses[0] as { id: number }).id },
    });
    expect(asked.body.change.status).toBe('pending');
    expect(await planOf(kid, WEDNESDAY)).toEqual({
      studentId: kid.id,
      way: { mode: 'car' },
      source: 'default',
    });
    // The office's queue holds it.
    const queue = (await admin.get('/api/dismissal-changes')).body.changes;
    expect(queue.map((c: { id: number }) => c.id)).toContain(asked.body.change.id);
    expect(queue.find((c: { id: number }) => c.id === asked.body.change.id).student).toMatchObject({
      id: kid.id,
      firstName: kid.firstName,
    });
    const approved = await admin.post(`/api/dismissal-changes/${asked.body.change.id}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body.change).toMatchObject({ status: 'approved', decidedBy: { name: 'Alex Admin' } });
    expect((await planOf(kid, WEDNESDAY)).way).toEqual({
      mode: 'bus',
      vehicleId: (buses[0] as { id: number }).id,
    });
    expect(
      (await admin.get('/api/dismissal-changes')).body.changes.map((c: { id: number }) => c.id),
    ).not.toContain(asked.body.change.id);
    // A second decision is refused.
    expect((await admin.post(`/api/dismissal-changes/${asked.body.change.id}/deny`, {})).status).toBe(409);
  });

  it('a deny leaves the weekly default, with the reason', async () => {
    await setClock({ changeApproval: 'office' });
    schoolTimeIs(WEDNESDAY, '09:00');
    const kid = child(6);
    const parent = await parentOf(kid);
    const asked = await askWalking(parent, kid, THURSDAY);
    const denied = await admin.post(`/api/dismissal-changes/${asked.id}/deny`, {
      reason: 'Too young to walk alone',
    });
    expect(denied.body.change).toMatchObject({ status: 'denied', reason: 'Too young to walk alone' });
    expect(await planOf(kid, THURSDAY)).toEqual({
      studentId: kid.id,
      way: { mode: 'car' },
      source: 'default',
    });
    expect((await parent.get(`/api/dismissal-changes?from=${WEDNESDAY}`)).body.changes).toEqual([
      expect.objectContaining({ id: asked.id, status: 'denied' }),
    ]);
  });

  it("after the cutoff is 409 naming the cutoff in the school's time, whatever the server's zone", async () => {
    const previous = process.env.TZ;
    process.env.TZ = 'Asia/Tokyo';
    try {
      await setClock({ changeCutoff: '14:30' });
      // 2:31 PM in Chicago: 5:31 AM the next day in Tokyo, where the server runs.
      schoolTimeIs(WEDNESDAY, '14:31');
      const kid = child(7);
      const parent = await parentOf(kid);
      const late = await parent.post('/api/dismissal-changes', {
        studentId: kid.id,
        date: WEDNESDAY,
        way: { mode: 'walker' },
      });
      expect({ status: late.status, body: late.body }).toEqual({
        status: 409,
        body: { message: 'Changes for today close at 2:30 PM. Please call the school office.' },
      });
      expect(await planOf(kid, WEDNESDAY)).toMatchObject({ way: { mode: 'car' }, source: 'default' });
      // Tomorrow is still open; the office enters today's change by phone.
      expect(
        (
          await parent.post('/api/dismissal-changes', {
            studentId: kid.id,
            date: THURSDAY,
            way: { mode: 'walker' },
          })
        ).status,
      ).toBe(201);
      const byPhone = await admin.post('/api/dismissal-changes', {
        studentId: kid.id,
        date: WEDNESDAY,
        way: { mode: 'absent' },
      });
      expect(byPhone.status).toBe(201);
      expect(byPhone.body.change).toMatchObject({
        status: 'approved',
        requestedBy: { role: 'school_admin' },
      });
      expect((await parent.get('/api/parent/ways-home')).body.schools[0]).toMatchObject({
        today: WEDNESDAY,
        pastCutoff: true,
      });
    } finally {
      if (previous === undefined) delete process.env.TZ;
      else process.env.TZ = previous;
    }
  });

  it("for another family's child is 404, and so is a past day refused", async () => {
    schoolTimeIs(WEDNESDAY, '09:00');
    const parent = await parentOf(child(8));
    const other = child(9);
    const answer = await parent.post('/api/dismissal-changes', {
      studentId: other.id,
      date: THURSDAY,
      way: { mode: 'walker' },
    });
    expect({ status: answer.status, message: answer.body.message }).toEqual({
      status: 404,
      message: 'Student not found',
    });
    expect(await planOf(other, THURSDAY)).toMatchObject({ source: 'default' });
    const past = await parent.post('/api/dismissal-changes', {
      studentId: child(8).id,
      date: '2026-11-24',
      way: { mode: 'walker' },
    });
    expect(past.body).toEqual({
      message: 'Choose today or a later day',
      issues: [{ path: 'date', message: 'Choose today or a later day' }],
    });
    const saturday = await parent.post('/api/dismissal-changes', {
      studentId: child(8).id,
      date: '2026-11-28',
      way: { mode: 'walker' },
    });
    expect(saturday.body.message).toBe('Choose a school day (Monday to Friday)');
  });

  it('a repeating change applies on its weekdays only', async () => {
    schoolTimeIs('2026-11-23', '08:00');
    const kid = child(10);
    const parent = await parentOf(kid);
    const asked = await parent.post('/api/dismissal-changes', {
      studentId: kid.id,
      date: '2026-11-23',
      until: '2026-12-11',
      weekdays: ['wed', 'fri'],
      way: { mode: 'walker' },
    });
    expect(asked.status).toBe(201);
    expect(asked.body.change).toMatchObject({ until: '2026-12-11', weekdays: ['wed', 'fri'] });
    for (const [date, mode] of [
      ['2026-11-23', 'car'], // Monday
      ['2026-11-25', 'walker'], // Wednesday
      ['2026-11-26', 'car'], // Thursday
      ['2026-11-27', 'walker'], // Friday
      ['2026-12-09', 'walker'],
      ['2026-12-16', 'car'], // after it ends
    ] as const) {
      expect((await planOf(kid, date)).way.mode, date).toBe(mode);
    }
    // Listed on a day it falls on, not on the others.
    const ids = async (date: string) =>
      (await admin.get(`/api/dismissal-changes?date=${date}`)).body.changes.map((c: { id: number }) => c.id);
    expect(await ids('2026-12-02')).toContain(asked.body.change.id);
    expect(await ids('2026-12-03')).not.toContain(asked.body.change.id);
  });

  it('an absent child is absent in the day’s plan', async () => {
    schoolTimeIs(WEDNESDAY, '07:30');
    const kid = child(11);
    const parent = await parentOf(kid);
    await parent.post('/api/dismissal-changes', {
      studentId: kid.id,
      date: WEDNESDAY,
      way: { mode: 'absent' },
      note: 'Flu',
    });
    expect(await planOf(kid, WEDNESDAY, front)).toMatchObject({ way: { mode: 'absent' }, source: 'change' });
  });

  it('is cancelled by the family before the cutoff (the default is back), not after; staff cancel any time', async () => {
    schoolTimeIs(WEDNESDAY, '11:00');
    const kid = child(12);
    const parent = await parentOf(kid);
    const first = await askWalking(parent, kid, WEDNESDAY);
    const cancelled = await parent.request('DELETE', `/api/dismissal-changes/${first.id}`);
    expect(cancelled.body.change).toMatchObject({ status: 'cancelled', cancelledBy: { role: 'parent' } });
    expect(await planOf(kid, WEDNESDAY)).toMatchObject({ way: { mode: 'car' }, source: 'default' });
    const second = await askWalking(parent, kid, WEDNESDAY);
    schoolTimeIs(WEDNESDAY, '14:05');
    const late = await parent.request('DELETE', `/api/dismissal-changes/${second.id}`);
    expect(late.status).toBe(409);
    expect(late.body.message).toBe('Changes for today close at 2:00 PM. Please call the school office.');
    // Another parent (even of the same child) cannot cancel it: 404.
    const stranger = await parentOf(child(13));
    expect((await stranger.request('DELETE', `/api/dismissal-changes/${second.id}`)).status).toBe(404);
    expect((await admin.request('DELETE', `/api/dismissal-changes/${second.id}`)).body.change.status).toBe(
      'cancelled',
    );
    expect(await planOf(kid, WEDNESDAY)).toMatchObject({ source: 'default' });
  });

  it('is in the record with its actor: the request, the decision, the cancellation', async () => {
    await setClock({ changeApproval: 'office' });
    schoolTimeIs(WEDNESDAY, '08:00');
    const kid = child(14);
    const parent = await parentOf(kid);
    const asked = await askWalking(parent, kid, THURSDAY);
    await admin.post(`/api/dismissal-changes/${asked.id}/approve`);
    await admin.request('DELETE', `/api/dismissal-changes/${asked.id}`);
    const history = (await admin.get(`/api/students/${kid.id}/way-history`)).body;
    expect(history.map((event: { kind: string }) => event.kind)).toEqual([
      'change_cancelled',
      'change_approved',
      'change_requested',
    ]);
    expect(history[2]).toMatchObject({
      actor: { role: 'parent' },
      change: { before: null, after: { id: asked.id, status: 'pending', way: { mode: 'walker' } } },
    });
    expect(history[1]).toMatchObject({
      actor: { username: 'admin_demo' },
      change: { before: { status: 'pending' }, after: { status: 'approved' } },
    });
    expect(history[0].change).toMatchObject({
      before: { status: 'approved' },
      after: { status: 'cancelled' },
    });
  });

  it('is refused in a school in sandbox mode, to its families too (read-only)', async () => {
    const school = await createSchoolWithStaff(server.db, 'ways_sandbox', true);
    const kid = await students.create(server.db, {
      schoolId: school.id,
      firstName: 'Sandy',
      lastName: 'Box',
      grade: '2',
      classroomId: null,
    });
    const family = await createStaff(server.db, {
      username: 'parent_ways_sandbox',
      role: 'parent',
      schoolId: school.id,
      districtId: null,
    });
    await parentLinks.link(server.db, family.id, school.id, kid.id);
    const parent = await signedIn(server.url, 'parent_ways_sandbox');
    const refused = await parent.post('/api/dismissal-changes', {
      studentId: kid.id,
      date: THURSDAY,
      way: { mode: 'walker' },
    });
    expect({ status: refused.status, message: refused.body.message }).toEqual({
      status: 403,
      message: 'Read-only mode: this school is in sandbox mode. Changes are not allowed.',
    });
  });

  it("another school's change is 404 to its staff", async () => {
    schoolTimeIs(WEDNESDAY, '08:00');
    const kid = child(15);
    const asked = (
      await admin.post('/api/dismissal-changes', {
        studentId: kid.id,
        date: THURSDAY,
        way: { mode: 'walker' },
      })
    ).body.change;
    await createSchoolWithStaff(server.db, 'ways_far').catch(() => undefined);
    const far = await signedIn(server.url, 'ways_far_school_admin');
    expect((await far.post(`/api/dismissal-changes/${asked.id}/approve`)).status).toBe(404);
    expect((await far.request('DELETE', `/api/dismissal-changes/${asked.id}`)).status).toBe(404);
    expect((await far.get(`/api/dismissal-changes?date=${THURSDAY}`)).body.changes).toEqual([]);
    expect(
      (await far.post('/api/dismissal-changes', { studentId: kid.id, date: THURSDAY, way: { mode: 'car' } }))
        .status,
    ).toBe(404);
  });
});

describe('the office decides', () => {
  it('and the family is emailed the decision in the language they asked in', async () => {
    await setClock({ changeApproval: 'office' });
    schoolTimeIs(WEDNESDAY, '08:00');
    const parent = await signedIn(server.url, 'parent_demo');
    const [kid] = (await parent.get('/api/parent/students')).body;
    const asked = (
      await parent.post('/api/dismissal-changes', {
        studentId: kid.id,
        date: THURSDAY,
        way: { mode: 'walker' },
        language: 'es',
      })
    ).body.change;
    await admin.post(`/api/dismissal-changes/${asked.id}/approve`);
    await vi.waitFor(
      () => {
        const mail = server.mail.list().find((found) => found.to.includes('parent_demo@curbside.example'));
        expect(mail?.subject).toBe(`Lincoln Elementary: Cambio aprobado — ${kid.firstName}`);
        expect(mail?.text).toContain(`${kid.firstName} se irá caminando el jueves, 26 de noviembre`);
      },
      { timeout: 10_000, interval: 50 },
    );
  });
});

describe('the students CSV dismissal column', () => {
  const header =
    'firstName,lastName,grade,parentName,parentPhone,parentEmail,vehicleNumber,busRoute,notes,dismissal';
  const importCsv = (text: string) =>
    fetch(`${server.url}/api/import/students`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv', cookie: admin.cookie as string, origin: server.url },
      body: text,
    }).then(async (answer) => ({ status: answer.status, body: (await answer.json()) as any }));

  it('sets weekly plans, and refuses unknown buses and programs with a row error', async () => {
    await admin.post('/api/programs', { name: 'Robotics', kind: 'activity' });
    const bus = buses[1] as { id: number; number: string };
    const refused = await importCsv(
      [
        header,
        'Wren,Ways,3,,,,,,,walker',
        `Quinn,Ways,3,,,,,,,bus:99`,
        'Rory,Ways,3,,,,,,,program:Knitting',
        'Sage,Ways,3,,,,,,,car|car|boat|car|car',
      ].join('\n'),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      { row: 3, column: 'dismissal', message: 'No bus 99 is registered. Add it in the Vehicles tab first.' },
      { row: 4, column: 'dismissal', message: 'No program named Knitting. Add it under Programs first.' },
      {
        row: 5,
        column: 'dismissal',
        message: 'Unknown way home "boat": use car, walker, bus:<number> or program:<name>',
      },
    ]);
    expect((await students.listBySchool(server.db, 1)).some((s) => s.firstName === 'Wren')).toBe(false);
    const done = await importCsv(
      [
        header,
        'Wren,Ways,3,,,,,,,walker',
        `Quinn,Ways,3,,,,,,,bus:${bus.number}`,
        'Rory,Ways,3,,,,,,,car|car|program:robotics|car|walker',
        'Tate,Ways,3,,,,,,,',
      ].join('\n'),
    );
    expect(done.status).toBe(200);
    const made = (await students.listBySchool(server.db, 1)).filter((s) => s.lastName === 'Ways');
    const byName = (name: string) => made.find((s) => s.firstName === name) as Student;
    expect((await planOf(byName('Wren'), WEDNESDAY)).way).toEqual({ mode: 'walker' });
    expect((await planOf(byName('Quinn'), WEDNESDAY)).way).toEqual({ mode: 'bus', vehicleId: bus.id });
    expect((await planOf(byName('Rory'), WEDNESDAY)).way).toMatchObject({ mode: 'program' });
    expect((await planOf(byName('Rory'), '2026-11-27')).way).toEqual({ mode: 'walker' });
    expect(await planOf(byName('Tate'), WEDNESDAY)).toMatchObject({
      way: { mode: 'car' },
      source: 'default',
    });
    const history = (await admin.get(`/api/students/${byName('Wren').id}/way-history`)).body;
    expect(history).toEqual([
      expect.objectContaining({
        kind: 'plan_set',
        actor: expect.objectContaining({ username: 'admin_demo' }),
      }),
    ]);
    // The same file again changes nothing.
    const again = await importCsv([header, 'Wren,Ways,3,,,,,,,walker'].join('\n'));
    expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 1 });
  });

  it('is in the template', async () => {
    const { csvTemplate } = await import('@curbside/domain');
    expect(csvTemplate('students').trim().split(',').at(-1)).toBe('dismissal');
  });
});
