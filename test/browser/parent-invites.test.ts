import { join } from 'node:path';
import { classrooms, students, vehicles } from '@curbside/store';
import { describe, expect, it } from 'vitest';
import { shotsDir, viewports } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { sessionBody } from '../support/fixtures';
import { Client, signedIn } from '../support/server';

/**
 * A school's invite link opened on a phone (issue 29), and the adults a family
 * allows to collect a child shown at the curb.
 */
const suite = browserSuite();

/** A Room 12 student (teacher_demo's) who rides in a registered car, and that car. */
const riderOfRoom12 = async () => {
  const db = suite.server.db;
  const room = (await classrooms.listBySchool(db, 1)).find((r) => r.name === 'Room 12');
  const roster = new Map((await students.listBySchool(db, 1)).map((s) => [s.id, s]));
  for (const vehicle of await vehicles.listBySchool(db, 1)) {
    if (vehicle.type !== 'car') continue;
    const student = vehicle.studentIds.map((id) => roster.get(id)).find((s) => s?.classroomId === room?.id);
    if (student) return { student, vehicle };
  }
  throw new Error('No Room 12 student rides in a car');
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
    await page.getByLabel('Contraseña', { exact: true }).fill('secret1');
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
      password: 'secret1',
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
      password: 'secret1',
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
