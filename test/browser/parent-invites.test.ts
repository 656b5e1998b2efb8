import { join } from 'node:path';
import { classrooms, students, vehicles } from '@curbside/store';
import { describe, expect, it } from 'vitest';
import { expectAccessible, shotsDir, viewports } from '../support/browser';
import { browserSuite, connected, painted } from '../support/browser-suite';
import { sessionBody } from '../support/fixtures';
import { Client, signedIn } from '../support/server';

/**
 * A school's invite link opened on a phone (issue 29), and the adults a family
 * allows to collect a child shown at the curb.
 */
const suite = browserSuite();

/** A Room 12 student (teacher_demo's) who rides in a registered car, and that car (the `nth` such car). */
const riderOfRoom12 = async (nth = 0) => {
  const db = suite.server.db;
  const room = (await classrooms.listBySchool(db, 1)).find((r) => r.name === 'Room 12');
  const roster = new Map((await students.listBySchool(db, 1)).map((s) => [s.id, s]));
  let skip = nth;
  for (const vehicle of (await vehicles.listBySchool(db, 1)).sort((a, b) => a.id - b.id)) {
    if (vehicle.type !== 'car') continue;
    const student = vehicle.studentIds.map((id) => roster.get(id)).find((s) => s?.classroomId === room?.id);
    if (student && skip-- === 0) return { student, vehicle };
  }
  throw new Error('No Room 12 student rides in a car');
};

/** A new parent of `studentId`, through an invite; answers the parent's client. */
const invitedParent = async (studentId: number, username: string, firstName: string, lastName: string) => {
  const url = await inviteUrl(studentId);
  const parent = new Client(suite.server.url);
  const accepted = await parent.post('/api/parent-invites/accept', {
    token: url.searchParams.get('t'),
    username,
    password: 'secret-pass-1',
    firstName,
    lastName,
    phone: '555-0101',
  });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
  return parent;
};

const inviteUrl = async (studentId: number) => {
  const admin = await signedIn(suite.server.url, 'admin_demo');
  const answer = await admin.post('/api/parent-invites', { studentIds: [studentId] });
  expect(answer.status).toBe(201);
  return new URL(answer.body.invites[0].url as string);
};

describe('an invite link on a phone', () => {
  it('in Spanish: names the child, creates the account and opens the child’s live status', async () => {
    const { student } = await riderOfRoom12();
    const url = await inviteUrl(student.id);
    const context = await suite.newContext({ viewport: viewports.phone, touch: true, locale: 'es-ES' });
    const page = await context.newPage();
    suite.watch(page, 'invited parent', true);
    await page.goto(`${url.pathname}${url.search}`);
    await page
      .getByRole('heading', {
        name: `Siga la recogida de ${student.firstName} ${student.lastName.charAt(0)}.`,
      })
      .waitFor({ timeout: 30_000 });
    await page.screenshot({ path: join(shotsDir(), 'parent-invite-link-es.png') });
    await page.getByLabel('Nombre', { exact: true }).fill('Lucía');
    await page.getByLabel('Apellido', { exact: true }).fill('Gómez');
    await page.getByLabel('Usuario', { exact: true }).fill('lucia_invited');
    await page.getByLabel('Contraseña', { exact: true }).fill('secret-pass-1');
    await page.getByLabel('Número de teléfono', { exact: true }).fill('555-0177');
    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    await page.waitForURL('**/parent-dashboard', { timeout: 30_000 });
    await page.getByText(`${student.firstName} ${student.lastName}`).first().waitFor({ timeout: 30_000 });
    expect(suite.errors).toEqual([]);
  });

  it('a used link says so, in Spanish', async () => {
    const { student } = await riderOfRoom12();
    const url = await inviteUrl(student.id);
    const token = url.searchParams.get('t');
    const first = await new Client(suite.server.url).post('/api/parent-invites/accept', {
      token,
      username: 'used_link_parent',
      password: 'secret-pass-1',
      firstName: 'Ana',
      lastName: 'Used',
      phone: '555-0100',
    });
    expect(first.status).toBe(201);
    const context = await suite.newContext({ viewport: viewports.phone, touch: true, locale: 'es-ES' });
    const page = await context.newPage();
    suite.watch(page, 'used link', true, [/410/]);
    await page.goto(`${url.pathname}${url.search}`);
    await page
      .getByText('Esta invitación ya se usó. Pida una nueva a la escuela.')
      .waitFor({ timeout: 30_000 });
  });
});

describe('authorized adults at the curb', () => {
  it('the teacher screen and the front queue card show who else may collect the child', async () => {
    const { student, vehicle } = await riderOfRoom12();
    const url = await inviteUrl(student.id);
    const parent = new Client(suite.server.url);
    await parent.post('/api/parent-invites/accept', {
      token: url.searchParams.get('t'),
      username: 'curb_parent',
      password: 'secret-pass-1',
      firstName: 'Cara',
      lastName: 'Curb',
      phone: '555-0101',
    });
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Chicago' }).format(Date.now());
    await parent.post('/api/parent/authorized-pickups', { studentId: student.id, name: 'Grandma Rosa' });
    await parent.post('/api/parent/authorized-pickups', {
      studentId: student.id,
      name: 'Ana Ruiz',
      onDate: today,
    });
    const line = 'Also allowed: Grandma Rosa; today: Ana Ruiz';

    const teacher = await suite.open('teacher_demo', '/teacher');
    await teacher.page
      .getByRole('list', { name: 'Students in class' })
      .getByText(line)
      .waitFor({ timeout: 60_000 });

    const front = await signedIn(suite.server.url, 'front_demo');
    const sessionId = (await front.post('/api/sessions', sessionBody())).body.id;
    await front.post('/api/queue', { sessionId, vehicleNumber: vehicle.number, vehicleType: 'car' });
    const queue = await suite.open('front_demo', '/front-queue');
    const card = queue.page.locator(`[role="group"][data-entry-id]`).filter({ hasText: line });
    await card.first().waitFor({ timeout: 60_000 });
    await queue.page.screenshot({ path: join(shotsDir(), 'front-queue-also-allowed.png') });
    expect(suite.errors).toEqual([]);
  });
});

describe('authorized adults a parent adds while the staff screens are open (issues 49, 50)', () => {
  it('reach the front queue and the teacher screen live; the details dialog lists them with their relationship, who added them and when', async () => {
    const { student, vehicle } = await riderOfRoom12(1);
    const parent = await invitedParent(student.id, 'live_curb_parent', 'Lee', 'Live');
    const front = await signedIn(suite.server.url, 'front_demo');
    const active = (await front.get('/api/sessions/active')).body;
    const sessionId = active?.id ?? (await front.post('/api/sessions', sessionBody())).body.id;
    expect(
      (await front.post('/api/queue', { sessionId, vehicleNumber: vehicle.number, vehicleType: 'car' }))
        .status,
    ).toBe(201);
    const queue = await suite.open('front_demo', '/front-queue');
    const card = queue.page
      .locator('[role="group"][data-entry-id]')
      .filter({ hasText: `Car ${vehicle.number}` });
    await card.first().waitFor({ timeout: 60_000 });
    const teacher = await suite.open('teacher_demo', '/teacher');
    // The car is in the queue: the child is in the teacher's (visible) ready list.
    const row = teacher.page
      .getByRole('list', { name: 'Ready students' })
      .getByRole('listitem', { name: `${student.firstName} ${student.lastName}`, exact: true });
    await row.waitFor({ timeout: 60_000 });
    await Promise.all([connected(queue.page), connected(teacher.page)]);
    expect(await card.getByText(/^Also allowed/).count()).toBe(0);

    const added = await parent.post('/api/parent/authorized-pickups', {
      studentId: student.id,
      name: 'Uncle Bob',
      relationship: 'Uncle',
      phone: '555-0142',
    });
    expect(added.status).toBe(201);

    // Both screens show him without a reload (their lists are kept for minutes otherwise).
    await card.getByText('Also allowed: Uncle Bob', { exact: true }).waitFor({ timeout: 10_000 });
    await row.getByText('Also allowed: Uncle Bob', { exact: true }).waitFor({ timeout: 10_000 });

    await card.first().click();
    const dialog = queue.page.getByRole('dialog');
    const adults = dialog.getByRole('list', {
      name: `Also allowed to pick up ${student.firstName} ${student.lastName}`,
    });
    await adults.getByText('Uncle Bob · Uncle', { exact: true }).waitFor();
    await adults.getByRole('link', { name: '555-0142' }).waitFor();
    await adults.getByText(/^Added by Lee Live today at \d{1,2}:\d{2} [AP]M$/).waitFor();
    await painted(queue.page);
    await expectAccessible(queue.page);
    await queue.page.screenshot({ path: join(shotsDir(), 'front-queue-authorized-adults-tablet.png') });

    // Removed by the family: gone from the open dialog and the card at once.
    expect((await parent.request('DELETE', `/api/parent/authorized-pickups/${added.body.id}`)).status).toBe(
      200,
    );
    await expect.poll(() => adults.count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => card.getByText(/^Also allowed/).count(), { timeout: 10_000 }).toBe(0);
    expect(suite.errors).toEqual([]);
  }, 120_000);

  it('the details dialog on a phone', async () => {
    const { student, vehicle } = await riderOfRoom12(1);
    const parent = await invitedParent(student.id, 'phone_curb_parent', 'Pia', 'Phone');
    await parent.post('/api/parent/authorized-pickups', {
      studentId: student.id,
      name: 'Grandma Lou',
      relationship: 'Grandmother',
      phone: '555-0143',
    });
    const queue = await suite.open('front_demo', '/front-queue', { viewport: viewports.phone, touch: true });
    const card = queue.page
      .locator('[role="group"][data-entry-id]')
      .filter({ hasText: `Car ${vehicle.number}` });
    await card.first().click({ timeout: 60_000 });
    const dialog = queue.page.getByRole('dialog');
    await dialog.getByText('Grandma Lou · Grandmother', { exact: true }).waitFor();
    await dialog.getByText(/^Added by Pia Phone today at/).waitFor();
    await painted(queue.page);
    const wide = await queue.page.evaluate<number>(
      'document.documentElement.scrollWidth - window.innerWidth',
    );
    expect(wide).toBeLessThanOrEqual(0);
    await queue.page.screenshot({ path: join(shotsDir(), 'front-queue-authorized-adults-phone.png') });
    expect(suite.errors).toEqual([]);
  }, 90_000);
});

describe('a car with two children (issue 50)', () => {
  it("says on its card whose each child's authorized adults are", async () => {
    const db = suite.server.db;
    const roster = new Map((await students.listBySchool(db, 1)).map((s) => [s.id, s]));
    const car = (await vehicles.listBySchool(db, 1))
      .sort((a, b) => b.id - a.id)
      .find((vehicle) => vehicle.type === 'car' && vehicle.studentIds.length === 2);
    const [first, second] = (car?.studentIds ?? []).map((id) => roster.get(id));
    if (!car || !first || !second) throw new Error('The demo school has no car with two children');
    const parent = await invitedParent(first.id, 'two_child_parent', 'Tess', 'Two');
    await parent.post('/api/parent/authorized-pickups', { studentId: first.id, name: 'Aunt Jo' });
    const front = await signedIn(suite.server.url, 'front_demo');
    const active = (await front.get('/api/sessions/active')).body;
    const sessionId = active?.id ?? (await front.post('/api/sessions', sessionBody())).body.id;
    await front.post('/api/queue', { sessionId, vehicleNumber: car.number, vehicleType: 'car' });

    const queue = await suite.open('front_demo', '/front-queue');
    const card = queue.page.locator('[role="group"][data-entry-id]').filter({ hasText: `Car ${car.number}` });
    await card
      .getByText(`${first.firstName}: Also allowed: Aunt Jo`, { exact: true })
      .waitFor({ timeout: 60_000 });
    expect(await card.getByText(/Also allowed/).count()).toBe(1);
    expect(suite.errors).toEqual([]);
  }, 90_000);
});

describe('a family with two children of the same first name (issue 50)', () => {
  it('gets authorized-adult cards that say which child each is about', async () => {
    const db = suite.server.db;
    const roster = await students.listBySchool(db, 1);
    const [first, second] = roster.filter((s) => s.firstName === 'Ava' && s.id !== roster[0]?.id);
    if (!first || !second) throw new Error('The demo school has no two Avas');
    const admin = await signedIn(suite.server.url, 'admin_demo');
    const parent = new Client(suite.server.url);
    const registered = await parent.post('/api/auth/parent/register', {
      name: 'Twin Names',
      username: 'two_avas_parent',
      password: 'secret-pass-1',
      email: 'two.avas@example.com',
      phone: '555-0144',
    });
    expect(registered.status).toBe(201);
    for (const child of [first, second]) {
      const code = (await admin.post('/api/pickup-codes/generate', { studentId: child.id })).body.code;
      expect((await parent.post('/api/parent/link-student', { pickupCode: code })).status).toBe(200);
    }
    const context = await suite.newContext({ viewport: viewports.phone, touch: true });
    await suite.signIn(context, 'two_avas_parent', { password: 'secret-pass-1', portal: 'parent' });
    const page = await context.newPage();
    suite.watch(page, 'two Avas', false);
    await page.goto('/parent-dashboard');
    for (const child of [first, second]) {
      await page
        .getByRole('region', {
          name: `Who else may pick up ${child.firstName} ${child.lastName}`,
          exact: true,
        })
        .waitFor({ timeout: 30_000 });
    }
    expect(await page.getByRole('region', { name: 'Who else may pick up Ava', exact: true }).count()).toBe(0);
    await painted(page);
    await expectAccessible(page);
    await page.screenshot({ path: join(shotsDir(), 'parent-two-avas-phone.png'), fullPage: true });
    expect(suite.errors).toEqual([]);
  }, 90_000);
});
