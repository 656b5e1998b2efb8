import { join } from 'node:path';
import type { Page, Route } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, shotsDir, viewports } from '../support/browser';
import { browserSuite, painted } from '../support/browser-suite';
import { queueCar } from '../support/car-line';
import { sessionBody } from '../support/fixtures';
import type { Client } from '../support/server';

/**
 * The front queue's fast entry and what follows it (issue 50, items 5, 6 and
 * 14), in Chromium on a tablet and a phone: the next number typed while an add
 * is on its way is kept (only the number sent is cleared) and can be sent at
 * once; the Undo toast names the car, shows its whole button and stays 10 s;
 * the car's ⋮ menu and the phone's front queue (its Recent Pickups table
 * scrolls sideways) pass axe.
 */
const suite = browserSuite({ reuseSignIns: true, closeAfterEach: true });
const { errors } = suite;
let front: Client;
let sessionId: number;

beforeAll(async () => {
  front = await suite.client('front_demo');
  sessionId = (await front.post('/api/sessions', sessionBody())).body.id;
});

afterEach(() => {
  expect(errors.splice(0)).toEqual([]);
});

const open = async (viewport: { width: number; height: number }, options: { clock?: boolean } = {}) => {
  const { page } = await suite.open('front_demo', '/front-queue', {
    viewport,
    touch: viewport === viewports.phone,
    clock: Boolean(options.clock),
    // The refused duplicate.
    expectedErrors: [/status of 409/],
  });
  await page.getByRole('heading', { name: 'Add Vehicle to Queue' }).waitFor();
  return page;
};

const queued = async () =>
  (
    (await front.get(`/api/queue?sessionId=${sessionId}`)).body as Array<{
      id: string;
      vehicleNumber: string;
    }>
  )
    .map((entry) => entry.vehicleNumber)
    .sort();

const card = (page: Page, name: string) => page.getByRole('group', { name, exact: true });

const press = async (page: Page, keys: string) => {
  const keypad = page.getByRole('group', { name: 'Keypad' });
  for (const key of keys) await keypad.getByRole('button', { name: key, exact: true }).click();
};

describe('fast entry on the front queue', () => {
  it('keeps the next number typed while the previous add is on its way, and sends it at once', async () => {
    const page = await open(viewports.tablet);
    // Each add is held on its way until the test lets it go (a slow network, ~0.3 s and more).
    const held: Route[] = [];
    await page.route(
      (url) => url.pathname === '/api/queue',
      (route) => (route.request().method() === 'POST' ? held.push(route) : route.continue()),
    );
    const field = page.getByLabel('Vehicle Number');
    await press(page, '112');
    await page.getByRole('group', { name: 'Keypad' }).getByRole('button', { name: 'Enter' }).click();
    await expect.poll(() => held.length).toBe(1);
    // The next car's number, typed while 112 is still being sent.
    await press(page, '114');
    expect(await field.inputValue()).toBe('114');
    // And sent before 112's answer came.
    await page.getByRole('group', { name: 'Keypad' }).getByRole('button', { name: 'Enter' }).click();
    await expect.poll(() => held.length).toBe(2);
    await press(page, '11');
    for (const route of held.splice(0)) await route.continue();
    await card(page, 'Car 112').waitFor();
    await card(page, 'Car 114').waitFor();
    await painted(page);
    // Both answers are in: what was typed after them is still there.
    expect(await field.inputValue()).toBe('11');
    expect(await queued()).toEqual(expect.arrayContaining(['112', '114']));
    await page.unrouteAll({ behavior: 'wait' });
  }, 60_000);

  it('puts a refused number back for correction when nothing else was typed', async () => {
    await queueCar(front, sessionId, '115');
    const page = await open(viewports.tablet);
    await press(page, '115');
    await page.getByRole('button', { name: 'Add to Queue' }).click();
    const field = page.getByLabel('Vehicle Number');
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
    const described = await field.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${described}"]`).textContent()).toBe(
      'Vehicle 115 is already in the queue',
    );
    expect(await field.inputValue()).toBe('115');
  }, 60_000);
});

describe('the Undo toast', () => {
  for (const [device, viewport] of Object.entries(viewports)) {
    it(`names the car, shows its whole Undo button and stays 10 s (${device})`, async () => {
      const number = device === 'phone' ? '121' : '120';
      await queueCar(front, sessionId, number);
      const page = await open(viewport, { clock: true });
      await card(page, `Car ${number}`).waitFor();
      await page.getByRole('button', { name: `Actions for Car ${number}` }).click();
      await page.getByRole('menuitem', { name: 'Vehicle left' }).click();
      const toast = page.getByRole('alert').filter({ hasText: 'Vehicle removed from queue' });
      await toast.waitFor();
      // The page's time stops 2 s on: a busy machine's checks and screenshot below do not count against the 10 s.
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 2_000);
      await toast.getByText(`Car ${number}`, { exact: true }).waitFor();
      const undo = toast.getByRole('button', { name: 'Undo', exact: true });
      // The word is whole: its label is as wide as its text, inside the button.
      const fits = await undo.evaluate((button) => {
        const node = button as unknown as { querySelector(s: string): any; getBoundingClientRect(): any };
        const label = node.querySelector('.mantine-Button-label') ?? node;
        const outer = node.getBoundingClientRect();
        const inner = label.getBoundingClientRect();
        return (
          label.scrollWidth <= label.clientWidth && inner.left >= outer.left && inner.right <= outer.right
        );
      });
      expect(fits).toBe(true);
      await page.screenshot({ path: join(shotsDir(), `undo-toast-${device}.png`) });
      await page.clock.fastForward(6_000); // 8 s and a little after it appeared
      expect(await toast.count()).toBe(1);
      await page.clock.resume();
      await page.clock.fastForward(3_000);
      await toast.waitFor({ state: 'detached' });
    }, 60_000);
  }
});

describe('accessibility of the front queue', () => {
  it('has no serious violation with a car’s ⋮ menu open (tablet)', async () => {
    await queueCar(front, sessionId, '130');
    const page = await open(viewports.tablet);
    await card(page, 'Car 130').waitFor();
    await page.getByRole('button', { name: 'Actions for Car 130' }).click();
    await page.getByRole('menuitem', { name: 'Vehicle left' }).waitFor();
    await painted(page);
    await expectAccessible(page);
    await page.keyboard.press('Escape');
  }, 60_000);

  it('has no serious violation on a phone with a recent pickup (its table scrolls sideways)', async () => {
    await queueCar(front, sessionId, '131');
    const entry = ((await front.get(`/api/queue?sessionId=${sessionId}`)).body as any[]).find(
      (item) => item.vehicleNumber === '131',
    );
    expect((await front.put(`/api/queue/${entry.id}/status`, { status: 'completed' })).status).toBe(200);
    const page = await open(viewports.phone);
    await page.getByRole('table').getByRole('cell', { name: '131', exact: true }).waitFor();
    await painted(page);
    await expectAccessible(page);
    // The sideways scroll is a named region reachable from the keyboard.
    const scroller = page.getByRole('region', { name: 'Recent Pickups table' });
    await scroller.focus();
    await page.keyboard.press('ArrowRight');
    await expect
      .poll(() => scroller.evaluate((node) => (node as unknown as { scrollLeft: number }).scrollLeft))
      .toBeGreaterThan(0);
  }, 60_000);
});
