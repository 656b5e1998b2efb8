import { join } from 'node:path';
import { classrooms, students } from '@curbside/store';
import { describe, expect, it } from 'vitest';
import { expectAccessible, shotsDir, viewports } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { Client, signedIn } from '../support/server';

/**
 * Issue 29, part B on screen: an emailed invite read on the laptop's mail
 * page (/dev/mail) and followed on a phone; a family adding and removing the
 * adults allowed to collect their child, in Spanish, seen at the curb.
 */
const suite = browserSuite();

describe('an emailed invite', () => {
  it("appears in the laptop's mail page and its link works", async () => {
    const db = suite.server.db;
    const room = await classrooms.create(db, {
      schoolId: 1,
      name: 'Room Mail',
      grade: '3',
      teacherId: null,
    } as never);
    await students.create(db, {
      schoolId: 1,
      firstName: 'Mateo',
      lastName: 'Emailed',
      grade: '3',
      classroomId: room.id,
      parentName: 'Elena Emailed',
      parentPhone: null,
      parentEmail: 'elena.emailed@family.example',
      notes: null,
    } as never);

    // The office emails the classroom's families from Invite Families and sees the emailing go out.
    const office = await suite.open('admin_demo', '/school-admin');
    await office.page
      .getByRole('region', { name: 'School Management' })
      .getByRole('button', { name: 'Invite Families' })
      .click();
    const dialog = office.page.getByRole('dialog', { name: 'Invite Families' });
    await dialog.getByRole('radio', { name: 'A classroom' }).check();
    await dialog.getByRole('textbox', { name: 'Classroom' }).click();
    await office.page.getByRole('option', { name: 'Room Mail', exact: true }).click();
    await dialog.getByRole('button', { name: 'Make Invites' }).click();
    await dialog.getByRole('button', { name: 'Email Invites' }).click();
    const progress = dialog.getByRole('region', { name: 'Email progress' });
    await progress.getByText('Emailed. Sent 1 of 1').waitFor({ timeout: 30_000 });
    expect(
      await progress.getByRole('progressbar', { name: 'Emails sent' }).getAttribute('aria-valuenow'),
    ).toBe('100');
    await dialog.screenshot({ path: join(shotsDir(), 'invite-families-emailed.png') });

    const mail = await suite.open(null, '/dev/mail', { label: 'mail page' });
    const message = mail.page.getByRole('article').filter({ hasText: 'elena.emailed@family.example' });
    await message.getByRole('heading', { name: /Mateo E\./ }).waitFor({ timeout: 30_000 });
    await mail.page.screenshot({ path: join(shotsDir(), 'dev-mail.png'), fullPage: true });
    await expectAccessible(mail.page);
    const links = message.getByRole('link', { name: /\/parent\/invite\?t=/ });
    expect(await links.count()).toBe(2); // the English and the Spanish paragraph
    await links.first().click();

    const { page } = mail;
    await page.getByRole('heading', { name: 'Follow Mateo E.’s pickup' }).waitFor({ timeout: 30_000 });
    await page.setViewportSize(viewports.phone);
    await page.getByLabel('First name', { exact: true }).fill('Elena');
    await page.getByLabel('Last name', { exact: true }).fill('Emailed');
    await page.getByLabel('Username', { exact: true }).fill('elena_emailed');
    await page.getByLabel('Password', { exact: true }).fill('secret-pass-1');
    await page.getByLabel('Phone number', { exact: true }).fill('555-0188');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL('**/parent-dashboard', { timeout: 30_000 });
    await page.getByRole('article', { name: 'Mateo Emailed' }).waitFor({ timeout: 30_000 });
    expect(suite.errors).toEqual([]);
  }, 180_000);
});

describe('the adults a family allows to collect a child', () => {
  it('a parent adds and removes them in Spanish on a phone; the teacher screen shows them', async () => {
    const db = suite.server.db;
    const room = (await classrooms.listBySchool(db, 1)).find((r) => r.name === 'Room 12');
    const child = (await students.listBySchool(db, 1)).find((s) => s.classroomId === room?.id);
    if (!child) throw new Error('Room 12 has no student');
    const admin = await signedIn(suite.server.url, 'admin_demo');
    const invite = await admin.post('/api/parent-invites', { studentIds: [child.id] });
    const accepted = await new Client(suite.server.url).post('/api/parent-invites/accept', {
      token: new URL(invite.body.invites[0].url).searchParams.get('t'),
      username: 'parent_pickups_es',
      password: 'secret-pass-1',
      firstName: 'Carmen',
      lastName: 'Familia',
      phone: '555-0150',
    });
    expect(accepted.status).toBe(201);

    const context = await suite.newContext({ viewport: viewports.phone, touch: true, locale: 'es-ES' });
    await suite.signIn(context, 'parent_pickups_es', { password: 'secret-pass-1' });
    const page = await context.newPage();
    suite.watch(page, 'parent (es)', false, [/status of 400/]);
    await page.goto('/parent-dashboard');
    const section = page.getByRole('region', { name: `Quién más puede recoger a ${child.firstName}` });
    await section.waitFor({ timeout: 30_000 });
    await section.getByText('Nadie más por ahora').waitFor();

    // No name: the API's 400 shows under the name field, in Spanish.
    await section.getByRole('button', { name: 'Agregar persona' }).click();
    await section.getByText('El nombre es obligatorio').waitFor({ timeout: 30_000 });
    expect(await section.getByLabel('Nombre', { exact: true }).getAttribute('aria-invalid')).toBe('true');

    await section.getByLabel('Nombre', { exact: true }).fill('Abuela Rosa');
    await section.getByLabel('Parentesco', { exact: true }).fill('Abuela');
    await section.getByLabel('Número de teléfono', { exact: true }).fill('555-0199');
    await section.getByRole('button', { name: 'Agregar persona' }).click();
    const rosa = section.getByRole('listitem').filter({ hasText: 'Abuela Rosa' });
    await rosa.getByText('Abuela · 555-0199 · Todos los días').waitFor({ timeout: 30_000 });

    // A day in the past: 400 under the date.
    await section.getByLabel('Nombre', { exact: true }).fill('Tío Pedro');
    await section.getByRole('radio', { name: 'Un día' }).check();
    await section.getByLabel('Fecha', { exact: true }).fill('2020-01-02');
    await section.getByRole('button', { name: 'Agregar persona' }).click();
    await section.getByText('La fecha ya pasó').waitFor({ timeout: 30_000 });

    await section.getByLabel('Nombre', { exact: true }).fill('Ana Ruiz');
    await section.getByRole('radio', { name: 'Solo hoy' }).check();
    await section.getByRole('button', { name: 'Agregar persona' }).click();
    await section.getByRole('listitem').filter({ hasText: 'Ana Ruiz' }).getByText('Solo hoy').waitFor({
      timeout: 30_000,
    });
    await page.screenshot({ path: join(shotsDir(), 'parent-authorized-pickups-es.png'), fullPage: true });
    await expectAccessible(page);

    await section.getByRole('button', { name: 'Quitar a Ana Ruiz' }).click();
    await expect.poll(() => section.getByText('Ana Ruiz').count(), { timeout: 30_000 }).toBe(0);
    await expect(rosa.count()).resolves.toBe(1);

    // The curb: the teacher screen says who else may collect the child (and not the removed one).
    const teacher = await suite.open('teacher_demo', '/teacher');
    const line = teacher.page
      .getByRole('list', { name: 'Students in class' })
      .getByText('Also allowed: Abuela Rosa', { exact: true });
    await line.waitFor({ timeout: 60_000 });
    expect(suite.errors).toEqual([]);
  }, 180_000);
});
