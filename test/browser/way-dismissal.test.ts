import { join } from 'node:path';
import { instantIn, weekdayOf } from '@curbside/domain';
import { DEMO_TIME_ZONE } from '@curbside/local/seed';
import { classrooms, type Student, students, vehicles } from '@curbside/store';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectAccessible, shotsDir, viewports } from '../support/browser';
import { browserSuite, connected } from '../support/browser-suite';
import { sessionBody } from '../support/fixtures';
import type { Client } from '../support/server';

/**
 * The whole dismissal by way home in Chromium (issue 52): the teacher screen
 * groups the classroom by way home with counts and a changed-today badge,
 * releases the walkers in one tap, and follows an office change without a
 * reload (tablet and phone); the front screen strikes through a car's absent
 * child with the reason. The server's clock (it shares this process) is the
 * next school day at 10:00 in the demo school's zone, so the weekly plans
 * apply whatever day the suite runs.
 */
const suite = browserSuite({ reuseSignIns: true });

/** The next Monday–Friday after the real today, as the school's date. */
const nextSchoolDay = () => {
  for (let days = 1; ; days++) {
    const date = new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    if (!['sat', 'sun'].includes(weekdayOf(date))) return date;
  }
};
const DAY = nextSchoolDay();

let admin: Client;
let front: Client;
let room: Student[];
let roomId: number;

const everyDay = (way: object) => ({ mon: way, tue: way, wed: way, thu: way, fri: way });
const changeToday = async (student: Student, way: object, note?: string) => {
  const answer = await admin.post('/api/dismissal-changes', {
    studentId: student.id,
    date: DAY,
    way,
    ...(note ? { note } : {}),
  });
  expect(answer.status).toBe(201);
};
const fullName = (student: Student) => `${student.firstName} ${student.lastName}`;
const shoot = (page: Page, name: string) =>
  page.screenshot({ path: join(shotsDir(), `way-dismissal-${name}.png`), fullPage: true });
const section = (scope: Page | Locator, name: string) => scope.getByRole('region', { name, exact: true });

let walkers: Student[];
let absent: Student;
let toBus: Student;
let later: Student;
let absentInCar: { number: string; kid: Student };

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(instantIn(DEMO_TIME_ZONE, DAY, '10:00'));
  [admin, front] = await Promise.all([suite.client('admin_demo'), suite.client('front_demo')]);
  const db = suite.server.db;
  roomId = ((await classrooms.listBySchool(db, 1)).find((r) => r.name === 'Room 12') as { id: number }).id;
  room = (await students.listByClassroom(db, 1, roomId)).sort((a, b) => a.id - b.id);
  const fleet = await vehicles.listBySchool(db, 1);
  const carOf = (student: Student) =>
    fleet.find((vehicle) => vehicle.type === 'car' && vehicle.studentIds.includes(student.id));
  const riders = room.filter((student) => carOf(student));
  [absent, toBus, later] = riders as [Student, Student, Student];
  walkers = riders.slice(-2);
  for (const walker of walkers)
    expect(
      (await admin.put(`/api/students/${walker.id}/dismissal-plan`, { plan: everyDay({ mode: 'walker' }) }))
        .status,
    ).toBe(200);
  const bus = fleet.find((vehicle) => vehicle.type === 'bus') as { id: number };
  await changeToday(absent, { mode: 'absent' }, 'Dentist');
  await changeToday(toBus, { mode: 'bus', vehicleId: bus.id }, 'Rides with her cousin');
  absentInCar = { number: (carOf(absent) as { number: string }).number, kid: absent };
  expect((await front.post('/api/sessions', sessionBody())).status).toBe(201);
});
afterAll(() => {
  vi.useRealTimers();
});

describe('the teacher screen by way home', () => {
  for (const [label, viewport] of [
    ['tablet', viewports.tablet],
    ['phone', viewports.phone],
  ] as const) {
    it(`shows the five groups with counts and a changed-today badge (${label})`, {
      timeout: 120_000,
    }, async () => {
      const { page } = await suite.open('teacher_demo', '/teacher', { viewport });
      const card = section(page, 'Way home today');
      await card.waitFor({ timeout: 30_000 });
      const counts = card.getByRole('list', { name: 'Counts by way home' });
      for (const title of ['Car riders', 'Bus riders', 'Walkers', 'Programs', 'Absent'])
        await counts.getByText(new RegExp(`^${title}: \\d+$`)).waitFor();
      await counts.getByText(/^Absent: [1-9]/).waitFor();
      await section(card, 'Absent')
        .getByRole('listitem', { name: fullName(absent) })
        .waitFor();
      const badge = card.getByRole('button', {
        name: new RegExp(`^Changed today: Car rider → Bus B\\d+ \\(${fullName(toBus)}\\)`),
      });
      await badge.click();
      await page.getByText('Rides with her cousin', { exact: true }).waitFor();
      await page.keyboard.press('Escape');
      await expectAccessible(page);
      await shoot(page, `teacher-${label}`);
    });
  }

  it('releases the walkers in one tap, and follows an office change without a reload', {
    timeout: 120_000,
  }, async () => {
    const { page } = await suite.open('teacher_demo', '/teacher');
    const card = section(page, 'Way home today');
    await card.waitFor({ timeout: 30_000 });
    await connected(page);
    const walking = section(card, 'Walkers');
    await walking
      .getByRole('listitem', { name: fullName(walkers[0] as Student) })
      .waitFor({ timeout: 30_000 });
    const present = await walking.getByRole('listitem').count();
    expect(present).toBeGreaterThanOrEqual(walkers.length);
    await walking.getByRole('button', { name: `Release walkers (${present})` }).click();
    for (const walker of walkers)
      await walking
        .getByRole('listitem', { name: fullName(walker) })
        .getByText(/^Released by /)
        .waitFor({ timeout: 15_000 });
    await walking.getByRole('button', { name: 'Release walkers' }).waitFor();
    expect(await walking.getByRole('button', { name: 'Release walkers' }).isDisabled()).toBe(true);

    // The office changes another child to walking today: the screen follows, never reloaded.
    await page.evaluate(() => {
      (globalThis as unknown as { notReloaded: boolean }).notReloaded = true;
    });
    await changeToday(later, { mode: 'walker' }, 'Walks with a neighbour');
    await walking.getByRole('listitem', { name: fullName(later) }).waitFor({ timeout: 15_000 });
    await walking.getByRole('button', { name: 'Release walkers (1)' }).waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as { notReloaded?: boolean }).notReloaded)).toBe(
      true,
    );
    await shoot(page, 'teacher-walkers-released');
  });
});

describe('the school admin screen', () => {
  it('releases the walkers of a grade in one press', { timeout: 120_000 }, async () => {
    const { page } = await suite.open('admin_demo', '/school-admin');
    const card = page.getByRole('region', { name: 'Walkers', exact: true });
    await card.getByRole('button', { name: 'Release walkers: Grade 2' }).click({ timeout: 30_000 });
    await page.getByText(/^(Released \d+ walkers?|No walkers left to release)$/).waitFor({ timeout: 15_000 });
    const sessionId = (await front.get('/api/sessions/active')).body.id as number;
    const listed = (await admin.get(`/api/teacher/students?sessionId=${sessionId}&classroomIds=${roomId}`))
      .body as Array<{
      id: number;
      releasedAt: string | null;
    }>;
    expect(listed.find((student) => student.id === later.id)?.releasedAt).toEqual(expect.any(String));
    await expectAccessible(page);
  });
});

describe('the front screen', () => {
  it('asks before queueing a car whose only child is absent, and strikes the child through with the reason', {
    timeout: 120_000,
  }, async () => {
    for (const [label, viewport] of [
      ['tablet', viewports.tablet],
      ['phone', viewports.phone],
    ] as const) {
      const { page } = await suite.open('front_demo', '/front-queue', { viewport });
      if (label === 'tablet') {
        await page.getByRole('textbox', { name: 'Vehicle Number' }).fill(absentInCar.number);
        await page.getByRole('button', { name: 'Add to Queue' }).click();
        const warning = page.getByRole('alert').filter({
          hasText: `Nobody in Car ${absentInCar.number} goes home in it today`,
        });
        await warning.getByText(`${fullName(absentInCar.kid)} — Absent today`).waitFor({ timeout: 30_000 });
        await expectAccessible(page);
        await shoot(page, 'front-not-coming');
        await warning.getByRole('button', { name: 'Queue anyway' }).click();
        await warning.waitFor({ state: 'detached' });
      }
      const card = page.getByRole('group', { name: `Car ${absentInCar.number}` });
      const line = card.getByRole('listitem').filter({ hasText: fullName(absentInCar.kid) });
      await line.waitFor({ timeout: 30_000 });
      expect(await line.textContent()).toBe(`${fullName(absentInCar.kid)} — Absent today`);
      expect(await line.locator('s').textContent()).toBe(fullName(absentInCar.kid));
      await expectAccessible(page);
      await shoot(page, `front-${label}`);
    }
  });
});

describe('the program screen', () => {
  it('lists today’s children of a program and checks one in', { timeout: 120_000 }, async () => {
    const program = (
      await admin.post('/api/programs', { name: 'Kids Club', kind: 'after_care', location: 'Gym' })
    ).body as { id: number };
    const kid = room.find((student) => ![absent, toBus, later, ...walkers].includes(student)) as Student;
    await changeToday(kid, { mode: 'program', programId: program.id }, 'Mom works late');
    const { page } = await suite.open('front_demo', '/programs');
    const list = section(page, 'Kids Club today');
    const row = list.getByRole('listitem', { name: fullName(kid) });
    await row.getByText('Not sent yet').waitFor({ timeout: 30_000 });
    await row.getByRole('button', { name: `Check in ${fullName(kid)}` }).click();
    await row.getByText(/^Checked in /).waitFor({ timeout: 15_000 });
    await list.getByText('Checked in: 1 of 1').waitFor();
    const listed = (await admin.get(`/api/programs/${program.id}/students`)).body.students;
    expect(listed).toEqual([expect.objectContaining({ id: kid.id, checkedInAt: expect.any(String) })]);
    await expectAccessible(page);
    await shoot(page, 'programs');
  });
});
