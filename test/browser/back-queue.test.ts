import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { shotsDir, viewports } from '../support/browser';
import { browserSuite, completeAnyway, connected, painted, type Viewport } from '../support/browser-suite';
import { sessionBody } from '../support/fixtures';
import { type Client, signedIn } from '../support/server';

/** The line a back queue screen logs when it ignores a drop it cannot read (expected by a test). */
const IGNORED_DROP = /^Ignored a drop/;

const suite = browserSuite();
let back: Client;
/** console.error lines of the back queue screens that the tests expect (ignored drops). */
const logged: string[] = [];

beforeAll(async () => {
  back = await signedIn(suite.server.url, 'back_demo');
});

/** A browser context signed in as `username` with `path` open. */
const open = async (username: string, path: string, viewport: Viewport, touch = false) => {
  const { page } = await suite.open(username, path, { viewport, touch, expectedErrors: [IGNORED_DROP] });
  page.on('console', (message) => {
    if (message.type() === 'error' && IGNORED_DROP.test(message.text())) logged.push(message.text());
  });
  return page;
};

/** How long a finger rests on a chip before it moves (a person's touch, not a flick). */
const TOUCH_HOLD_MS = 150;

/** Drags with a finger (touch events, so the page sees touch pointers) from one element to another. */
const touchDrag = async (page: Page, from: Locator, to: Locator) => {
  const start = await from.boundingBox();
  const end = await to.boundingBox();
  if (!start || !end) throw new Error('nothing to drag');
  const viewport = page.viewportSize();
  for (const box of [start, end]) {
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height / 2).toBeLessThan(viewport?.height ?? 0);
  }
  const a = { x: start.x + start.width / 2, y: start.y + start.height / 2 };
  const b = { x: end.x + end.width / 2, y: end.y + end.height / 2 };
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [a] });
  await page.waitForTimeout(TOUCH_HOLD_MS);
  const steps = 12;
  for (let i = 1; i <= steps; i++) {
    const point = { x: a.x + ((b.x - a.x) * i) / steps, y: a.y + ((b.y - a.y) * i) / steps };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [point] });
  }
  // The zone under the finger lights up before the finger lifts.
  await to.and(page.locator('[data-active]')).waitFor();
  await page.screenshot({ path: join(shotsDir(), 'back-queue-touch-drag.png') });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
};

/** Drags with the mouse (HTML5 drag and drop) from one element to another, in small steps like a hand. */
const mouseDrag = async (page: Page, from: Locator, to: Locator) => {
  const start = await from.boundingBox();
  const end = await to.boundingBox();
  if (!start || !end) throw new Error('nothing to drag');
  await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
  await page.mouse.down();
  await page.mouse.move(start.x + start.width / 2 + 20, start.y + start.height / 2 + 10, { steps: 5 });
  await page.mouse.move(end.x + end.width / 2, end.y + end.height / 2, { steps: 10 });
  await to.and(page.locator('[data-active]')).waitFor();
  await page.mouse.up();
};

const region = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const button = (scope: Page | Locator, name: string | RegExp) =>
  scope.getByRole('button', typeof name === 'string' ? { name, exact: true } : { name });
const text = (scope: Page | Locator, value: string) => scope.getByText(value, { exact: true });
/** A vehicle card of the queue list: a group named after the vehicle. */
const card = (scope: Page | Locator, name: string) => scope.getByRole('group', { name, exact: true });

describe('the back queue screen', () => {
  it('says that no session is running when there is none', async () => {
    const page = await open('back_demo', '/back-queue', viewports.phone);
    await page.getByRole('heading', { name: 'No Active Session', exact: true }).waitFor();
    await text(
      page,
      'There is currently no active pickup or dropoff session. Please start a new session using the button in the header.',
    ).waitFor();
    await page.close();
  });

  describe('with a running session', () => {
    let sessionId: number;
    let tablet: Page;
    let phone: Page;
    let front: Page;

    beforeAll(async () => {
      const created = await back.post('/api/sessions', sessionBody());
      expect(created.status).toBe(201);
      sessionId = created.body.id;
      for (const vehicleNumber of ['101', '102', '103', '104']) {
        const queued = await back.post('/api/queue', { sessionId, vehicleNumber, vehicleType: 'car' });
        expect(queued.status).toBe(201);
      }
      tablet = await open('back_demo', '/back-queue', viewports.tablet);
      phone = await open('back_demo', '/back-queue', viewports.phone, true);
      front = await open('front_demo', '/front-queue', viewports.tablet);
      for (const page of [tablet, phone]) {
        await page.getByRole('heading', { name: 'Batch Management', exact: true }).waitFor();
        await region(page, 'Alerts: Back Queue').waitFor();
        await page.getByRole('heading', { name: 'Vehicle Queue Management', exact: true }).waitFor();
      }
      await front.getByRole('heading', { name: 'Current Queue' }).waitFor();
      for (const page of [tablet, phone, front]) await connected(page);
    }, 60_000);

    it('offers a new batch per type only when such vehicles wait', async () => {
      await button(tablet, 'New Car Batch (4)').waitFor();
      expect(await button(tablet, 'New Car Batch (4)').isEnabled()).toBe(true);
      expect(await button(tablet, 'No Buses in Queue').isDisabled()).toBe(true);
      for (const label of ['All', 'Cars Only', 'Buses Only', 'Overflow Only']) {
        await button(tablet, label).waitFor();
      }
      await text(tablet, 'No active batches').waitFor();
      await text(tablet, 'No vehicles in overflow area').waitFor();
      await text(tablet, 'Vehicles moved to overflow (not ready for pickup) - click X to dismiss').waitFor();
    });

    it('fills a new car batch in one tap, takes a car back with its dialog, tops up with Add to batch, on both back queue screens', async () => {
      await button(tablet, 'New Car Batch (4)').click();
      const batch = region(tablet, 'Batch #1');
      await batch.waitFor();
      // One tap: the four waiting cars are in the batch.
      await text(batch, '4/8 vehicles').waitFor();
      await text(batch, 'loading').waitFor();
      await batch.getByText(/^Started \d{1,2}:\d{2} [AP]M$/).waitFor();
      await expect
        .poll(() => batch.getByRole('listitem').allTextContents())
        .toEqual(['101', '102', '103', '104']);
      await button(tablet, 'No Cars in Queue').waitFor();

      // The chip's dialog takes a car back to the queue with a button (as well as by drag).
      await button(batch, 'Car 104').click();
      const dialog = tablet.getByRole('dialog');
      await button(dialog, 'Move to Overflow').waitFor();
      await button(dialog, 'Back to Queue').click();
      await dialog.waitFor({ state: 'detached' });
      await text(batch, '3/8 vehicles').waitFor();
      await button(tablet, 'New Car Batch (1)').waitFor();

      // Add to batch tops a batch up, and takes it back out again the same way.
      await button(batch, 'Add to batch').click();
      await text(batch, '4/8 vehicles').waitFor();
      await button(batch, 'Car 104').click();
      await button(tablet.getByRole('dialog'), 'Back to Queue').click();
      await text(batch, '3/8 vehicles').waitFor();
      for (const car of ['Car 101', 'Car 102', 'Car 103']) await button(batch, car).waitFor();
      expect(await batch.getByRole('listitem').allTextContents()).toEqual(['101', '102', '103']);
      await button(tablet, 'New Car Batch (1)').waitFor();

      // The other back queue screen and the front queue follow live.
      const other = region(phone, 'Batch #1');
      await text(other, '3/8 vehicles').waitFor();
      await button(other, 'Car 103').waitFor();
      await button(phone, 'New Car Batch (1)').waitFor();
      await text(card(front, 'Car 101'), 'Batch #1').waitFor();
    }, 60_000);

    it('opens the details of a vehicle chip', async () => {
      await button(region(tablet, 'Batch #1'), 'Car 101').click();
      const dialog = tablet.getByRole('dialog');
      for (const section of ['Contact Information', 'Children', 'Pickup Information']) {
        await dialog.getByRole('heading', { name: section }).waitFor();
      }
      await text(dialog, 'Batch #1').first().waitFor();
      await text(dialog, 'Click anywhere to close').click();
      await dialog.waitFor({ state: 'detached' });
    });

    it('moves a chip to the overflow area with a mouse drag', async () => {
      const batch = region(tablet, 'Batch #1');
      await mouseDrag(tablet, button(batch, 'Car 103'), region(tablet, 'Overflow Area'));
      await text(batch, '2/8 vehicles').waitFor();
      await button(batch, 'Car 103').waitFor({ state: 'detached' });
      const overflow = region(tablet, 'Overflow Area');
      await button(overflow, 'Dismiss Car 103').waitFor();
      await text(overflow, '1 vehicle').waitFor();
      // The front queue shows the car in overflow, out of its batch.
      const frontCard = card(front, 'Car 103');
      await text(frontCard, 'Overflow').waitFor();
      expect(await text(frontCard, 'Batch #1').count()).toBe(0);
      await button(region(phone, 'Overflow Area'), 'Dismiss Car 103').waitFor();
    }, 60_000);

    it('moves a chip back to the queue with a finger on a touch screen', async () => {
      const zone = region(phone, 'Back to Queue');
      const batch = region(phone, 'Batch #1');
      const chip = button(batch, 'Car 102');
      // The zone at the top of the screen, the chip below it.
      await zone.evaluate((element: any) => {
        const page = globalThis as any;
        page.scrollBy(0, element.getBoundingClientRect().top - 8);
      });
      await touchDrag(phone, chip, zone);
      await text(batch, '1/8 vehicles').waitFor();
      await chip.waitFor({ state: 'detached' });
      await text(region(tablet, 'Batch #1'), '1/8 vehicles').waitFor();
      await button(tablet, 'New Car Batch (2)').waitFor();
      // A car in a loading batch reads Waiting too: the move shows once its batch leaves the card.
      const frontCard = card(front, 'Car 102');
      await text(frontCard, 'Batch #1').waitFor({ state: 'detached' });
      await text(frontCard, 'Waiting').waitFor();
    }, 60_000);

    it('ignores a drop whose data is not JSON and logs it', async () => {
      const before = logged.length;
      for (const data of ['{not json', '{"hello":"world"}']) {
        await region(tablet, 'Overflow Area').evaluate((zone: any, raw: string) => {
          const page = globalThis as any;
          const transfer = new page.DataTransfer();
          transfer.setData('application/json', raw);
          zone.dispatchEvent(
            new page.DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: transfer }),
          );
        }, data);
      }
      await expect.poll(() => logged.length - before).toBe(2);
      const batch = region(tablet, 'Batch #1');
      await text(batch, '1/8 vehicles').waitFor();
      await button(batch, 'Car 101').waitFor();
      await text(region(tablet, 'Overflow Area'), '1 vehicle').waitFor();
    });

    it('completes the batch: its cars leave the queue and become Recent Pickups', async () => {
      await button(region(tablet, 'Batch #1'), 'Complete Batch').click();
      // Nobody released its children: the screen asks first.
      await completeAnyway(tablet);
      const batch = region(tablet, 'Batch #1');
      await text(batch, 'Batch completed').waitFor();
      await text(batch, 'completed').waitFor();
      await batch.getByText(/^\d+ minutes?$/).waitFor();
      expect(await button(batch, 'Complete Batch').count()).toBe(0);
      expect(await button(batch, 'Add to batch').count()).toBe(0);
      await text(tablet, 'No active batches').waitFor();
      await text(region(phone, 'Batch #1'), 'Batch completed').waitFor();

      await card(front, 'Car 101').waitFor({ state: 'detached' });
      const pickups = front.getByRole('table');
      await pickups.getByRole('cell', { name: '101', exact: true }).waitFor();
      // A completed batch's chips still open the details, without Complete Pickup.
      await button(batch, 'Car 101').click();
      const dialog = tablet.getByRole('dialog');
      await dialog.getByRole('heading', { name: 'Contact Information' }).waitFor();
      expect(await button(dialog, 'Complete Pickup').count()).toBe(0);
      await text(dialog, 'Click anywhere to close').click();
      await dialog.waitFor({ state: 'detached' });
    }, 60_000);

    it('dismisses an overflow vehicle with X on every screen', async () => {
      await button(region(tablet, 'Overflow Area'), 'Dismiss Car 103').click();
      await text(region(tablet, 'Overflow Area'), 'No vehicles in overflow area').waitFor();
      await text(region(phone, 'Overflow Area'), 'No vehicles in overflow area').waitFor();
      await card(front, 'Car 103').waitFor({ state: 'detached' });
    }, 60_000);

    it('filters batches by type and shows the overflow area on its own', async () => {
      await back.post('/api/queue', { sessionId, vehicleNumber: '2', vehicleType: 'bus' });
      await button(tablet, 'New Bus Batch (1)').click();
      await region(tablet, 'Batch #2').waitFor();

      await button(tablet, 'Cars Only').click();
      expect(await button(tablet, 'Cars Only').getAttribute('aria-pressed')).toBe('true');
      await region(tablet, 'Batch #1').waitFor();
      await region(tablet, 'Batch #2').waitFor({ state: 'detached' });
      await button(tablet, 'New Car Batch (2)').waitFor();
      expect(await button(tablet, /^New Bus Batch|No Buses in Queue/).count()).toBe(0);
      expect(await tablet.getByRole('heading', { name: 'Vehicle Queue Management' }).count()).toBe(0);

      await button(tablet, 'Buses Only').click();
      await region(tablet, 'Batch #2').waitFor();
      await region(tablet, 'Batch #1').waitFor({ state: 'detached' });

      await button(tablet, 'Overflow Only').click();
      await text(tablet, 'No vehicles in overflow area').waitFor();
      await region(tablet, 'Batch #2').waitFor({ state: 'detached' });
      expect(await tablet.getByRole('button', { name: /^New (Car|Bus) Batch/ }).count()).toBe(0);

      await button(tablet, 'All').click();
      await tablet.getByRole('heading', { name: 'Vehicle Queue Management' }).waitFor();
      await region(tablet, 'Batch #1').waitFor();
      await region(tablet, 'Batch #2').waitFor();
    }, 60_000);

    it('logs no errors in any screen', () => {
      expect(suite.errors).toEqual([]);
    });
  });

  it('fits tablets and phones with loading and completed batches and an overflow vehicle', async () => {
    const active = (await back.get('/api/sessions/active')).body;
    if (active) await back.put(`/api/sessions/${active.id}/end`);
    const sessionId = (await back.post('/api/sessions', sessionBody())).body.id;
    for (const vehicleNumber of ['110', '111', '112', '113', '114', '115', '116']) {
      await back.post('/api/queue', { sessionId, vehicleNumber, vehicleType: 'car' });
    }
    await back.post('/api/queue', { sessionId, vehicleNumber: '4', vehicleType: 'bus' });
    await back.post('/api/queue', { sessionId, vehicleNumber: '5', vehicleType: 'bus' });
    const batch = async (vehicleType: string, adds: number) => {
      const created = (await back.post('/api/batches', { sessionId, vehicleType })).body;
      for (let i = 0; i < adds; i++) await back.post(`/api/batches/${created.id}/vehicles`);
      return created;
    };
    const done = await batch('car', 2);
    await back.put(`/api/batches/${done.id}`, {
      status: 'completed',
      confirmUnreleased: true,
      endTime: new Date().toISOString(),
    });
    await batch('car', 3);
    await batch('bus', 1);
    const entries = (await back.get(`/api/queue?sessionId=${sessionId}`)).body as any[];
    const batched = entries.find((entry) => entry.batchId !== null && entry.vehicleType === 'car');
    await back.put(`/api/queue/${batched.id}`, { batchId: null, status: 'overflow' });

    const dir = shotsDir();
    for (const [name, viewport] of Object.entries(viewports)) {
      const page = await open('back_demo', '/back-queue', viewport, name === 'phone');
      await region(page, 'Batch #3').waitFor();
      await text(region(page, 'Batch #1'), 'Batch completed').waitFor();
      await text(region(page, 'Batch #2'), '2/8 vehicles').waitFor();
      await button(region(page, 'Overflow Area'), /^Dismiss Car/).waitFor();
      await painted(page);
      // Nothing sticks out sideways.
      const wide = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
      expect(wide).toBeLessThanOrEqual(0);
      await page.screenshot({ path: join(dir, `back-queue-${name}.png`), fullPage: true });
      // The full page in screen-high slices, to look at in detail.
      const height = await page.evaluate<number>('document.documentElement.scrollHeight');
      for (let top = 0, part = 1; top < height; top += viewport.height, part++) {
        await page.screenshot({
          path: join(dir, `back-queue-${name}-${part}.png`),
          fullPage: true,
          clip: { x: 0, y: top, width: viewport.width, height: Math.min(viewport.height, height - top) },
        });
      }
      await page.close();
    }
    expect(suite.errors).toEqual([]);
  }, 90_000);
});
