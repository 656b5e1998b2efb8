import { parentLinks, students } from '@curbside/store';
import { describe, expect, it } from 'vitest';
import { createSchoolWithStaff, createStaff } from '../support/fixtures';
import { signedIn } from '../support/server';
import {
  admin,
  askWalking,
  buses,
  child,
  front,
  parentOf,
  planOf,
  schoolTimeIs,
  server,
  setClock,
  THURSDAY,
  WEDNESDAY,
  waysHomeServer,
} from '../support/ways-home';

/**
 * Every way home (issue 51), a family's dated changes: the school's cutoff in its own time
 * zone, approval, today's plan, and the record. The setup and the school's clock:
 * `test/support/ways-home.ts`.
 */
waysHomeServer();

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
