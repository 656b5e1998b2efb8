import { join } from 'node:path';
import { classrooms, students } from '@curbside/store';
import jsQR from 'jsqr';
import type { Locator, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { expectAccessible, shotsDir } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { Client, signedIn } from '../support/server';

/**
 * The school admin's "Invite Families" (issue 29): invites for a classroom,
 * their letters printed one per page (English and Spanish, a QR code of the
 * link and the link), a student's invites with Revoke; and the budget of the
 * letters page: 2,000 letters render in under 10 s in Chromium.
 */
const suite = browserSuite();

/** The text a QR code's screenshot holds (null if none is found). */
const decodeQr = async (qr: Locator) => {
  const png = PNG.sync.read(await qr.screenshot());
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null;
};

const room12 = async () => {
  const db = suite.server.db;
  const room = (await classrooms.listBySchool(db, 1)).find((r) => r.name === 'Room 12');
  if (!room) throw new Error('The demo school has no Room 12');
  return { room, pupils: await students.listByClassroom(db, 1, room.id) };
};

const toast = (page: Page, title: string) =>
  page.locator('.mantine-Notification-root').filter({ hasText: title });

describe('Invite Families', () => {
  it('the admin prints a classroom’s letters: one per page, both languages, a QR code that opens the invite', async () => {
    const { room, pupils } = await room12();
    const { page } = await suite.open('admin_demo', '/school-admin');
    const management = page.getByRole('region', { name: 'School Management' });
    await management.getByRole('button', { name: 'Invite Families' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite Families' });
    await dialog.getByRole('radio', { name: 'A classroom' }).check();
    await dialog.getByRole('textbox', { name: 'Classroom' }).click();
    await page.getByRole('option', { name: 'Room 12', exact: true }).click();
    await dialog.screenshot({ path: join(shotsDir(), 'invite-families-dialog.png') });
    await dialog.getByRole('button', { name: 'Make Invites' }).click();

    const made = dialog.getByRole('status');
    await made.waitFor({ timeout: 30_000 });
    const count = Number((await made.textContent())?.match(/(\d+) invites? made/)?.[1]);
    expect(count).toBeGreaterThanOrEqual(pupils.length);
    expect(await made.textContent()).toContain(`for ${pupils.length} students`);
    await dialog.screenshot({ path: join(shotsDir(), 'invite-families-made.png') });

    // Email Invites sends the same selector to the mail route (part B of the issue answers it): the
    // answer names a mail run, whose progress the dialog reads until it is done.
    let emailed: unknown = null;
    const runId = '0b0e6f4c-3f2a-4c1e-9d51-6a2f1c7e8b90';
    await page.route('**/api/parent-invites/email', async (route) => {
      emailed = route.request().postDataJSON();
      await route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ runId, queued: 3, skipped: 2 }),
      });
    });
    await page.route(`**/api/parent-invites/email/${runId}`, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ queued: 3, sent: 3, failed: 0, skipped: 2, done: true }),
      }),
    );
    await dialog.getByRole('button', { name: 'Email Invites' }).click();
    await toast(page, 'Invites emailed').waitFor();
    await dialog.getByRole('region', { name: 'Email progress' }).getByText('Sent 3 of 3').waitFor();
    expect(await toast(page, 'Invites emailed').textContent()).toContain(
      '3 emails sent; 2 families without an email address skipped.',
    );
    expect(emailed).toEqual({ classroomId: room.id });

    // The toast goes before the letters' screenshot.
    await toast(page, 'Invites emailed').waitFor({ state: 'hidden', timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Print Letters' }).click();
    await page.waitForURL('**/invite-letters');
    // The links are handed over in this tab only: never in the address.
    expect(page.url()).not.toMatch(/[?&#]t=|token/);
    const letters = page.getByRole('article');
    await expect.poll(() => letters.count(), { timeout: 30_000 }).toBe(count);
    expect(await page.evaluate(() => Object.keys(localStorage).some((k) => k.includes('invite')))).toBe(
      false,
    );

    const pupil = pupils[0] as (typeof pupils)[number];
    const letter = page
      .getByRole('article', { name: `Letter for ${pupil.firstName} ${pupil.lastName}` })
      .first();
    await letter.scrollIntoViewIfNeeded();
    const text = (await letter.textContent()) ?? '';
    expect(text).toContain('Lincoln Elementary');
    expect(text).toContain('Room 12');
    expect(text).toContain(`Follow ${pupil.firstName}’s pickup on your phone`);
    expect(text).toContain(`Siga la recogida de ${pupil.firstName} en su teléfono`);
    expect(await letter.locator('section[lang="es"]').count()).toBe(1);
    await letter.screenshot({ path: join(shotsDir(), 'invite-letter.png') });

    const link = (
      await letter
        .locator('p', { hasText: /\/parent\/invite\?t=/ })
        .last()
        .textContent()
    )?.trim();
    expect(link).toMatch(new RegExp(`^${suite.origin}/parent/invite\\?t=[A-Za-z0-9_-]{43}$`));
    const qr = letter.getByRole('img', { name: /QR code of the invite link/ });
    expect(await decodeQr(qr)).toBe(link);
    const lookup = await new Client(suite.server.url).get(
      `/api/parent-invites/lookup?t=${new URL(link as string).searchParams.get('t')}`,
    );
    expect(lookup.status).toBe(200);
    expect(lookup.body.student.firstName).toBe(pupil.firstName);

    await expectAccessible(page);

    // Printed: one letter per page.
    await page.emulateMedia({ media: 'print' });
    const pdf = (await page.pdf({ format: 'Letter', preferCSSPageSize: true })).toString('latin1');
    expect(pdf.match(/\/Type\s*\/Page\b/g)?.length).toBe(count);
    await page.emulateMedia({ media: 'screen' });
    expect(suite.errors).toEqual([]);
  }, 180_000);

  it('a student’s invites show where each stands, and Revoke stops a link', async () => {
    const { pupils } = await room12();
    const pupil = pupils[1] as (typeof pupils)[number];
    const admin = await signedIn(suite.server.url, 'admin_demo');
    const answer = await admin.post('/api/parent-invites', { studentIds: [pupil.id] });
    expect(answer.status).toBe(201);
    const invite = answer.body.invites[0] as { id: number; url: string };

    const { page } = await suite.open('admin_demo', '/school-admin');
    const management = page.getByRole('region', { name: 'School Management' });
    await management
      .getByRole('textbox', { name: 'Search students' })
      .fill(`${pupil.firstName} ${pupil.lastName}`);
    await management.getByRole('button', { name: `Invites of ${pupil.firstName} ${pupil.lastName}` }).click();
    const dialog = page.getByRole('dialog', { name: `Invites: ${pupil.firstName} ${pupil.lastName}` });
    const row = dialog.locator(`tr[data-invite-id="${invite.id}"]`);
    await row.getByText('Pending').waitFor({ timeout: 30_000 });
    await expectAccessible(page);
    await row.getByRole('button', { name: /^Revoke the invite/ }).click();
    await row.getByRole('button', { name: /^Yes, revoke/ }).click();
    await row.getByText('Revoked').waitFor({ timeout: 30_000 });
    await toast(page, 'Invite revoked').waitFor();
    await dialog.screenshot({ path: join(shotsDir(), 'student-invites-dialog.png') });
    const accept = await new Client(suite.server.url).post('/api/parent-invites/accept', {
      token: new URL(invite.url).searchParams.get('t'),
      username: 'revoked_letter_parent',
      password: 'secret-pass-1',
      firstName: 'Rita',
      lastName: 'Revoked',
      phone: '555-0199',
    });
    expect(accept.status).toBe(410);
    expect(suite.errors).toEqual([]);
  }, 120_000);
});

/** Letters in the measured render (the budget: 2,000 in under 10 s). */
const LETTERS = 2000;
const RENDER_BUDGET_MS = 10_000;
/**
 * The budget is the on a machine to itself (`npx vitest run` of this file); in the whole
 * suite (CI: two test files at once on two cores) the page gets about half a core, so twice that.
 */
const ALLOWED_MS = RENDER_BUDGET_MS * (process.env.CI ? 2 : 1);

describe('budget', () => {
  it(`the letters page renders ${LETTERS} letters in under ${RENDER_BUDGET_MS / 1000} s`, async () => {
    const admin = await signedIn(suite.server.url, 'admin_demo');
    const me = (await admin.get('/api/me')).body as { id: number };
    const expiresAt = new Date(Date.now() + 30 * 24 * 3600_000).toISOString();
    // Made-up links of the real shape: the page renders what it is handed, and 2,000 real invites are
    // measured by the API budget test (test/api/parent-invites-budget.test.ts).
    const invites = Array.from({ length: LETTERS }, (_, i) => ({
      id: 1_000_000 + i,
      studentId: 1_000_000 + i,
      guardianName: i % 2 ? `Guardian ${i}` : null,
      email: null,
      expiresAt,
      url: `${suite.origin}/parent/invite?t=${Buffer.alloc(32, i).toString('base64url')}`,
      student: { firstName: `Child${i}`, lastName: 'Budget', grade: '3', classroom: `Room ${i % 80}` },
    }));
    const batch = JSON.stringify({
      userId: me.id,
      schoolName: 'Lincoln Elementary',
      madeAt: expiresAt,
      invites,
    });
    const context = await suite.newContext(
      { initScripts: [`sessionStorage.setItem('curbside-invite-letters', ${JSON.stringify(batch)});`] },
      // The measure polls in the page on every frame (waitForFunction), which the app's policy refuses as eval.
      { bypassCSP: true },
    );
    await suite.signIn(context, 'admin_demo');
    const page = await context.newPage();
    suite.watch(page, 'letters budget', false);
    await page.goto('/invite-letters');
    // Measured in the page, from the start of navigation to every letter's QR code drawn
    // (a CSS query: role queries over 2,000 letters would time the test tool instead).
    const handle = await page.waitForFunction(
      `document.querySelectorAll('article[data-invite-id] svg path[d^="M"]').length === ${LETTERS} && performance.now()`,
      undefined,
      { timeout: 60_000, polling: 'raf' },
    );
    const ms = Math.round((await handle.jsonValue()) as number);
    console.info(`invite letters: ${LETTERS} letters rendered in ${ms} ms (budget ${RENDER_BUDGET_MS} ms)`);
    expect(await page.locator('article[data-invite-id]').count()).toBe(LETTERS);
    expect(ms).toBeLessThan(ALLOWED_MS);
    expect(suite.errors).toEqual([]);
  }, 120_000);
});
