import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unreleasedQuestion } from '@curbside/domain';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, shotsDir, viewports } from '../support/browser';
import { browserSuite, completeAnyway } from '../support/browser-suite';
import { queueCar } from '../support/car-line';
import { sessionBody } from '../support/fixtures';
import type { Client } from '../support/server';

/**
 * Issue 50, item 1, on the screens: car 112 carries three children and the
 * teacher released two. Completing it (Complete Batch, Child picked up,
 * Complete Pickup, or a completion that waited offline) asks first, naming
 * the third child; Cancel changes nothing; Complete anyway completes it, and
 * the report, its CSV and the child's history say the same of each child.
 */
const suite = browserSuite({ closeAfterEach: true });

/** The 409 a completion answers while a child is not released: the screen asks. */
const ASKED = [{ text: /status of 409/, url: /\/api\/(queue|batches)\// }];
const OFFLINE = [/net::ERR_INTERNET_DISCONNECTED/];
/** The office's screen. */
const DESKTOP = { width: 1440, height: 900 };

let front: Client;
let back: Client;
let teacher: Client;
let sessionId: number;
interface Child {
  id: number;
  firstName: string;
  lastName: string;
}
let car112: { id: string; students: Child[] };
let third: Child;

/** "Leo Johnson has not been released by a teacher. Complete anyway?" */
const question = (...children: Child[]) => unreleasedQuestion(children);
const asked = (page: Page) => page.getByRole('dialog', { name: 'Not released by a teacher' });
const card = (page: Page, number: string) => page.getByRole('group', { name: `Car ${number}`, exact: true });
const completedOnServer = async (number: string) =>
  ((await front.get(`/api/queue?sessionId=${sessionId}&status=completed`)).body as any[]).some(
    (entry) => entry.vehicleNumber === number,
  );

beforeAll(async () => {
  [front, back, teacher] = await Promise.all([
    suite.client('front_demo'),
    suite.client('back_demo'),
    suite.client('teacher_demo'),
  ]);
  sessionId = (await front.post('/api/sessions', sessionBody())).body.id;
  car112 = await queueCar(front, sessionId, '112');
  third = car112.students[2] as Child;
  for (const child of car112.students.slice(0, 2)) {
    expect((await teacher.put(`/api/teacher/students/${child.id}/release`)).status).toBe(200);
  }
  expect(
    (await back.post('/api/batches', { sessionId, vehicleType: 'car', fill: true })).body.currentCount,
  ).toBe(1);
}, 120_000);

describe('completing a car with a child no teacher released', () => {
  it('asks first on the back screen, naming the child; Cancel keeps the batch loading, Complete anyway completes it', async () => {
    const { page } = await suite.open('back_demo', '/back-queue', { expectedErrors: ASKED });
    const batch = page.getByRole('region', { name: 'Batch #1' });
    await batch.getByRole('button', { name: 'Complete Batch' }).click();
    const dialog = asked(page);
    await dialog.getByText(question(third), { exact: true }).waitFor();
    await dialog.getByText(`${third.firstName} ${third.lastName} · Car 112`, { exact: true }).waitFor();
    await page.screenshot({ path: join(shotsDir(), 'unreleased-question-back-tablet.png') });
    await expectAccessible(page);

    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await batch.getByRole('button', { name: 'Complete Batch' }).waitFor();
    expect(await completedOnServer('112')).toBe(false);

    await batch.getByRole('button', { name: 'Complete Batch' }).click();
    await completeAnyway(page);
    await batch.getByText('Batch completed', { exact: true }).waitFor({ timeout: 20_000 });
    expect(await completedOnServer('112')).toBe(true);
  }, 90_000);

  it('asks first on a phone from the card menu and from the details dialog', async () => {
    const car = await queueCar(front, sessionId, '113');
    const { page } = await suite.open('front_demo', '/front-queue', {
      viewport: viewports.phone,
      touch: true,
      expectedErrors: ASKED,
    });
    await page.getByRole('button', { name: 'Actions for Car 113', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Child picked up', exact: true }).click();
    const [child] = car.students as [Child];
    await asked(page).getByText(question(child), { exact: true }).waitFor();
    await page.screenshot({ path: join(shotsDir(), 'unreleased-question-phone.png') });
    await asked(page).getByRole('button', { name: 'Cancel' }).click();
    // Nothing happened: the car is still in the line.
    await card(page, '113').waitFor();
    expect(await completedOnServer('113')).toBe(false);

    await card(page, '113').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Complete Pickup' }).click();
    await completeAnyway(page);
    await card(page, '113').waitFor({ state: 'detached', timeout: 20_000 });
    await expect.poll(() => completedOnServer('113'), { timeout: 20_000 }).toBe(true);
  }, 90_000);

  it('asks first even without a connection, and the completion waits in the outbox', async () => {
    const car = await queueCar(front, sessionId, '114');
    const { page, context } = await suite.open('front_demo', '/front-queue', { expectedErrors: OFFLINE });
    await card(page, '114').waitFor({ timeout: 30_000 });
    await suite.connected(page);
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Actions for Car 114', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Child picked up', exact: true }).click();
    // The screen knows nobody released its children: it asks before keeping anything.
    await asked(page)
      .getByText(question(...car.students), { exact: true })
      .waitFor();
    await completeAnyway(page);
    await page.getByText('Waiting to send', { exact: true }).first().waitFor({ timeout: 10_000 });
    await context.setOffline(false);
    await expect.poll(() => completedOnServer('114'), { timeout: 20_000 }).toBe(true);
  }, 90_000);

  it('asks when a completion that waited offline is refused because the batch changed meanwhile, instead of losing it', async () => {
    // Batch: car 102, both of its children released. The tablet goes offline.
    const car102 = await queueCar(front, sessionId, '102');
    for (const child of car102.students) {
      expect((await teacher.put(`/api/teacher/students/${child.id}/release`)).status).toBe(200);
    }
    const batch = (await back.post('/api/batches', { sessionId, vehicleType: 'car', fill: true })).body;
    const name = `Batch #${batch.batchNumber}`;
    const { page, context } = await suite.open('back_demo', '/back-queue', {
      expectedErrors: [...ASKED, ...OFFLINE],
    });
    const region = page.getByRole('region', { name });
    await region.getByRole('button', { name: 'Car 102' }).waitFor({ timeout: 30_000 });
    await suite.connected(page);
    await context.setOffline(true);
    // Meanwhile another tablet puts car 115 (nobody released) into the batch: this one cannot see it.
    const car115 = await queueCar(front, sessionId, '115');
    expect((await back.put(`/api/queue/${car115.id}`, { batchId: batch.id, status: 'waiting' })).status).toBe(
      200,
    );
    await region.getByRole('button', { name: 'Complete Batch' }).click();
    await page.getByText('Waiting to send', { exact: true }).first().waitFor({ timeout: 10_000 });

    await context.setOffline(false);
    // Sent once the connection is back, refused: the screen asks at once, and the question
    // stays on the screen (with Complete anyway and Dismiss) once the dialog is closed.
    await asked(page)
      .getByText(question(...car115.students), { exact: true })
      .waitFor({ timeout: 20_000 });
    await page.screenshot({ path: join(shotsDir(), 'unreleased-outbox-question.png') });
    await asked(page).getByRole('button', { name: 'Cancel' }).click();
    const refused = page.getByRole('alert').filter({ hasText: 'been released by a teacher' });
    await refused.getByText(`Not sent: ${question(...car115.students)}`).waitFor({ timeout: 20_000 });
    await refused.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shotsDir(), 'unreleased-outbox-refusal.png') });
    const loading = async () =>
      ((await back.get(`/api/batches/active?sessionId=${sessionId}`)).body as Array<{ id: number }>).some(
        (item) => item.id === batch.id,
      );
    expect(await loading()).toBe(true);

    await refused.getByRole('button', { name: `Complete anyway: ${name}` }).click();
    await expect.poll(loading, { timeout: 20_000 }).toBe(false);
    await region.getByText('Batch completed', { exact: true }).waitFor({ timeout: 20_000 });
    await refused.waitFor({ state: 'detached' });
    expect(await completedOnServer('115')).toBe(true);
  }, 90_000);
});

describe("the record of car 112's children", () => {
  it("says the same in the report, its CSV and the third child's history", async () => {
    const { page } = await suite.open('admin_demo', `/session-reports/${sessionId}`, {
      viewport: DESKTOP,
      acceptDownloads: true,
    });
    const pickups = page.getByRole('table', { name: 'Pickups' });
    const row = pickups.locator('tbody tr').filter({ hasText: /^112/ });
    const teacherName = (await teacher.get('/api/me')).body.name as string;
    for (const child of car112.students.slice(0, 2)) {
      await row.getByText(new RegExp(`^${child.firstName}: \\d+:\\d\\d [AP]M · ${teacherName}$`)).waitFor();
    }
    await row
      .getByText(`${third.firstName}: Completed without a teacher's release`, { exact: true })
      .waitFor();
    await page.screenshot({ path: join(shotsDir(), 'unreleased-report.png'), fullPage: true });
    await expectAccessible(page);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    const lines = readFileSync((await download.path()) as string, 'utf8')
      .trim()
      .split('\r\n');
    const ofChild = (child: Child) => lines.find((line) => line.includes(`,${child.id},${child.firstName},`));
    expect(ofChild(third)).toContain("Completed without a teacher's release");
    for (const child of car112.students.slice(0, 2))
      expect(ofChild(child)).toContain(`${teacherName} (teacher)`);

    const admin = await suite.open('admin_demo', '/school-admin', { viewport: DESKTOP });
    await admin.page.getByRole('textbox', { name: /^Search students/ }).fill(third.firstName);
    await admin.page.getByRole('button', { name: `Pickups of ${third.firstName} ${third.lastName}` }).click();
    const history = admin.page.getByRole('table', {
      name: `Pickups of ${third.firstName} ${third.lastName}`,
    });
    await history.getByText("Completed without a teacher's release", { exact: true }).waitFor();
    const released = car112.students[0] as Child;
    await admin.page.keyboard.press('Escape');
    await admin.page.getByRole('textbox', { name: /^Search students/ }).fill(released.firstName);
    await admin.page
      .getByRole('button', { name: `Pickups of ${released.firstName} ${released.lastName}` })
      .click();
    await admin.page
      .getByRole('table', { name: `Pickups of ${released.firstName} ${released.lastName}` })
      .getByText(new RegExp(`^${teacherName} at \\d+:\\d\\d [AP]M$`))
      .waitFor();
  }, 120_000);

  it('logs no errors', () => {
    expect(suite.errors).toEqual([]);
  });
});
