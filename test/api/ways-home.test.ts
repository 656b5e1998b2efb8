import { type Student, students } from '@curbside/store';
import { describe, expect, it, vi } from 'vitest';
import { createSchoolWithStaff } from '../support/fixtures';
import { signedIn } from '../support/server';
import {
  admin,
  buses,
  child,
  front,
  planOf,
  schoolTimeIs,
  server,
  setClock,
  THURSDAY,
  WEDNESDAY,
  waysHomeServer,
} from '../support/ways-home';

/**
 * Every way home (issue 51): programs, weekly plans, the office's decisions, the students CSV's
 * dismissal column (a family's dated changes: ways-home-changes.test.ts). The setup and the
 * school's clock: `test/support/ways-home.ts`.
 */
waysHomeServer();

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
