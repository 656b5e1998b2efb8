import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectAccessible, shotsDir, viewports } from '../support/browser';
import { browserSuite, connected } from '../support/browser-suite';
import { signedIn } from '../support/server';

/**
 * Every way home in Chromium (issue 51): a parent on a phone asks to change
 * how their child goes home, the office approves it on the admin dashboard
 * and the parent sees "Approved" without a reload; the settings screen sets
 * the school's time zone and cutoff; the roster edits a weekly plan.
 */
const suite = browserSuite();
const shoot = (page: import('playwright-core').Page, name: string) =>
  page.screenshot({ path: join(shotsDir(), `ways-home-${name}.png`), fullPage: true });

describe('a change of a way home', () => {
  it('a parent on a phone asks, the office approves on its dashboard, the parent sees Approved live', {
    timeout: 180_000,
  }, async () => {
    const admin = await signedIn(suite.server.url, 'admin_demo');
    const settings = (await admin.get('/api/schools/1/settings')).body;
    await admin.put('/api/schools/1/settings', { ...settings, changeApproval: 'office' });
    try {
      const { page: phone } = await suite.open('parent_demo', '/parent-dashboard', {
        viewport: viewports.phone,
      });
      const [child] = (await (await phone.request.get('/api/parent/students')).json()) as Array<{
        id: number;
        firstName: string;
        lastName: string;
      }>;
      if (!child) throw new Error('parent_demo follows no child');
      const form = phone.getByRole('region', { name: `Change how ${child.firstName} goes home` });
      await form
        .getByText('The school office approves each change.', { exact: false })
        .waitFor({ timeout: 30_000 });
      await phone.getByText(`Today: Car rider`).first().waitFor();
      await connected(phone);
      // The phone's own picker (a native select): the first school day offered, then Walker.
      await form.getByRole('combobox', { name: 'Day' }).selectOption({ index: 1 });
      await form.getByRole('combobox', { name: 'Goes home' }).selectOption({ label: 'Walker' });
      await form.getByLabel('Note for the school (optional)').fill('Grandma walks her home');
      await form.getByRole('button', { name: 'Send change' }).click();
      const requests = phone.getByRole('region', { name: `Changes: ${child.firstName}` });
      await requests.getByText('Waiting for the office').waitFor({ timeout: 15_000 });
      await expectAccessible(phone);
      await shoot(phone, 'parent-pending');

      const { page: office } = await suite.open('admin_demo', '/school-admin');
      const card = office.getByRole('region', { name: "Today's changes" });
      const row = card.getByRole('listitem', { name: `${child.firstName} ${child.lastName}: Walker` });
      await row.getByText('“Grandma walks her home”').waitFor({ timeout: 30_000 });
      await expectAccessible(office);
      await card.screenshot({ path: join(shotsDir(), 'ways-home-office-pending.png') });
      await row
        .getByRole('button', { name: `Approve the change for ${child.firstName} ${child.lastName}` })
        .click();
      await card.getByText('No requests are waiting.').waitFor({ timeout: 15_000 });

      // On the phone, never reloaded.
      await requests.getByText('Approved', { exact: true }).waitFor({ timeout: 15_000 });
      expect(await requests.getByText('Waiting for the office').count()).toBe(0);
      await shoot(phone, 'parent-approved');
    } finally {
      await admin.put('/api/schools/1/settings', settings);
    }
  });
});

describe('the office', () => {
  it('enters a change from a phone call: a student absent for a day', { timeout: 120_000 }, async () => {
    const admin = await signedIn(suite.server.url, 'admin_demo');
    const { page } = await suite.open('admin_demo', '/school-admin');
    const card = page.getByRole('region', { name: "Today's changes" });
    await card.getByRole('button', { name: 'Enter a change' }).click({ timeout: 30_000 });
    const dialog = page.getByRole('dialog', { name: 'Enter a change' });
    const student = dialog.getByRole('textbox', { name: 'Student' });
    await student.fill('Liam');
    await page.getByRole('option', { name: /^Liam Martinez/ }).click();
    // The day starts as the school's first school day from today.
    const day = await dialog.getByLabel('Day').inputValue();
    expect(day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await dialog.getByRole('textbox', { name: 'Goes home' }).click();
    await page.getByRole('option', { name: 'Absent', exact: true }).click();
    await dialog.getByLabel('Note').fill('Dentist, called at 9:10');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Save change' }).click();
    await page.getByText('Change saved').waitFor({ timeout: 15_000 });
    const changes = (await admin.get(`/api/dismissal-changes?date=${day}`)).body.changes as Array<{
      student: { firstName: string };
      way: { mode: string };
      status: string;
      note: string;
    }>;
    expect(changes.find((change) => change.student.firstName === 'Liam')).toMatchObject({
      way: { mode: 'absent' },
      status: 'approved',
      note: 'Dentist, called at 9:10',
    });
  });
});

describe('the school settings screen', () => {
  it("sets the school's time zone and change cutoff", { timeout: 120_000 }, async () => {
    const admin = await signedIn(suite.server.url, 'admin_demo');
    const before = (await admin.get('/api/schools/1/settings')).body;
    try {
      const { page } = await suite.open('admin_demo', '/school-settings');
      const zone = page.getByRole('textbox', { name: 'Time zone' });
      await expect.poll(() => zone.inputValue(), { timeout: 30_000 }).toBe('America/Chicago');
      await zone.click();
      await zone.fill('Lisbon');
      await page.getByRole('option', { name: 'Europe/Lisbon' }).click();
      await page.getByLabel("Families' change cutoff").fill('13:30');
      await page.getByText('until 1:30 PM (school time)', { exact: false }).waitFor();
      await page.getByRole('radio', { name: 'The office approves each one' }).check();
      await page.getByRole('button', { name: 'Save Settings' }).click();
      await page.getByText('School settings saved.').waitFor({ timeout: 10_000 });
      await expectAccessible(page);
      await shoot(page, 'settings');
      expect((await admin.get('/api/schools/1/settings')).body).toMatchObject({
        timeZone: 'Europe/Lisbon',
        changeCutoff: '13:30',
        changeApproval: 'office',
      });
    } finally {
      await admin.put('/api/schools/1/settings', before);
    }
  });
});

describe('the roster', () => {
  it("edits a student's weekly way home from their row", { timeout: 120_000 }, async () => {
    const admin = await signedIn(suite.server.url, 'admin_demo');
    await admin.post('/api/programs', { name: 'Kids Club', kind: 'after_care', location: 'Gym' });
    const student = (await admin.get('/api/students?limit=1')).body.items[0] as {
      id: number;
      firstName: string;
      lastName: string;
    };
    const name = `${student.firstName} ${student.lastName}`;
    const { page } = await suite.open('admin_demo', '/school-admin');
    await page.getByRole('button', { name: `Way home of ${name}: Car rider` }).click({ timeout: 30_000 });
    const dialog = page.getByRole('dialog', { name: `Way home of ${name}` });
    const wednesday = dialog.getByRole('textbox', { name: 'Wednesday' });
    await expect.poll(() => wednesday.inputValue(), { timeout: 15_000 }).toBe('Car rider');
    await wednesday.click();
    await page.getByRole('option', { name: 'Walker', exact: true }).click();
    await dialog.getByRole('textbox', { name: 'Friday' }).click();
    await page.getByRole('option', { name: 'Kids Club', exact: true }).click();
    await expectAccessible(page);
    await shoot(page, 'week-editor');
    await dialog.getByRole('button', { name: 'Save way home' }).click();
    await page
      .getByRole('button', { name: `Way home of ${name}: Car rider; Wed: Walker; Fri: Kids Club` })
      .waitFor({ timeout: 15_000 });
    expect((await admin.get(`/api/students/${student.id}/dismissal-plan`)).body.plan).toMatchObject({
      mon: { mode: 'car' },
      wed: { mode: 'walker' },
      fri: { mode: 'program' },
    });
    // The student's history shows the change, with who made it.
    await page.getByRole('button', { name: `Pickups of ${name}` }).click();
    const history = page.getByRole('table', { name: 'Way home changes' });
    const set = history.getByRole('row').filter({ hasText: 'Weekly plan set' });
    await set.waitFor({ timeout: 15_000 });
    await set.getByText('admin_demo').waitFor();
    await set.getByText('Car rider (no plan) → Car rider; Wed: Walker; Fri: Kids Club').waitFor();
  });
});
