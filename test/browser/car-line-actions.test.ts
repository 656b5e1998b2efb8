import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { shotsDir } from '../support/browser';
import { browserSuite, completeAnyway } from '../support/browser-suite';
import { queueCar } from '../support/car-line';
import { sessionBody } from '../support/fixtures';
import { type Client, signedIn } from '../support/server';

/**
 * Issue 13's car-line actions in the browser: a teacher's release shows on
 * the front queue card within 2 s, New Car Batch loads a whole batch in one
 * tap, and a number that is not on the roster is marked on its card and in
 * the add confirmation.
 */
const suite = browserSuite();
let front: Client;
let teacher: Client;
let sessionId: number;

beforeAll(async () => {
  front = await signedIn(suite.server.url, 'front_demo');
  teacher = await signedIn(suite.server.url, 'teacher_demo');
  sessionId = (await front.post('/api/sessions', sessionBody())).body.id;
});

const open = async (username: string, path: string): Promise<Page> => (await suite.open(username, path)).page;

const shot = (page: Page, name: string) => page.screenshot({ path: join(shotsDir(), `${name}.png`) });

describe('the car line', () => {
  it('shows a released child on the front queue card within 2 s', async () => {
    await queueCar(front, sessionId, '101');
    const page = await open('front_demo', '/front-queue');
    const card = page.getByRole('group', { name: 'Car 101', exact: true });
    await card.waitFor();
    await suite.connected(page);
    expect(await card.getByText('Ava M. released').count()).toBe(0);
    const students = (await teacher.get(`/api/teacher/students?sessionId=${sessionId}`)).body as any[];
    const ava = students.find((s) => s.firstName === 'Ava' && s.lastName === 'Martinez');
    const released = await teacher.put(`/api/teacher/students/${ava.id}/release`);
    expect(released.status).toBe(200);
    const answeredAt = Date.now();
    await card.getByText('Ava M. released', { exact: true }).waitFor({ timeout: 2_000 });
    expect(Date.now() - answeredAt).toBeLessThan(2_000);
    // A fresh read shows the same: the mark is the server's.
    await page.reload();
    await page.getByRole('group', { name: 'Car 101', exact: true }).getByText('Ava M. released').waitFor();
    await shot(page, 'front-queue-released-badge');
  }, 60_000);

  it('marks a number that is not on the roster, on its card and in the add confirmation', async () => {
    const page = await open('front_demo', '/front-queue');
    await page.getByLabel('Vehicle Number').fill('999');
    await page.getByRole('button', { name: 'Add to Queue' }).click();
    const card = page.getByRole('group', { name: 'Car 999', exact: true });
    await card.getByText('Not registered', { exact: true }).waitFor();
    await shot(page, 'front-queue-not-registered');
    await page.getByText('Not registered: this number is not on the school’s vehicle list').first().waitFor();
    // A registered car is not marked.
    expect(
      await page.getByRole('group', { name: 'Car 101', exact: true }).getByText('Not registered').count(),
    ).toBe(0);
  }, 60_000);

  it('sends a completed pickup at once, and Undo brings the car back on another screen too', async () => {
    await queueCar(front, sessionId, '120');
    const page = await open('front_demo', '/front-queue');
    const other = await open('back_demo', '/front-queue');
    const card = page.getByRole('group', { name: 'Car 120', exact: true });
    const otherCard = other.getByRole('group', { name: 'Car 120', exact: true });
    await otherCard.waitFor({ timeout: 20_000 });
    await suite.connected(other);
    await card.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Complete Pickup' }).click();
    // Nobody released its children: the screen asks first.
    await completeAnyway(page);
    await card.waitFor({ state: 'detached' });
    // Sent at once: nothing waits on the tablet, the other screen sees the car leave.
    await expect
      .poll(
        async () =>
          ((await front.get(`/api/queue?sessionId=${sessionId}&status=completed`)).body as any[]).some(
            (entry) => entry.vehicleNumber === '120',
          ),
        { timeout: 20_000 },
      )
      .toBe(true);
    await otherCard.waitFor({ state: 'detached', timeout: 20_000 });

    await page.getByRole('button', { name: 'Undo', exact: true }).click();
    await card.waitFor({ timeout: 20_000 });
    await otherCard.waitFor({ timeout: 20_000 });
    await shot(page, 'front-queue-undo');
    const back = (await front.get(`/api/queue?sessionId=${sessionId}`)).body as any[];
    const restored = back.find((entry) => entry.vehicleNumber === '120');
    expect(restored?.status).toBe('waiting');
    // Picked up for good, so the next test finds the line as it was.
    await front.request('DELETE', `/api/queue/${restored.id}`, {
      reason: 'picked_up',
      confirmUnreleased: true,
    });
  }, 90_000);

  it('loads a batch of 8 from 10 waiting cars in one tap on New Car Batch', async () => {
    // 101 and 999 wait already; eight more.
    for (const number of ['102', '103', '104', '105', '106', '107', '108', '109'])
      await queueCar(front, sessionId, number);
    const page = await open('back_demo', '/back-queue');
    await page.getByRole('button', { name: 'New Car Batch (10)' }).click();
    await expect
      .poll(
        async () => (await front.get(`/api/batches/active?sessionId=${sessionId}`)).body[0]?.currentCount,
        {
          timeout: 15_000,
        },
      )
      .toBe(8);
    const chips = page.getByRole('list', { name: 'Vehicles in Batch #1' }).getByRole('button');
    await expect.poll(() => chips.count(), { timeout: 15_000 }).toBe(8);
    await page.getByRole('button', { name: 'New Car Batch (2)' }).waitFor({ timeout: 15_000 });
    await shot(page, 'back-queue-filled-batch');
  }, 60_000);
});
