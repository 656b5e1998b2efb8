import { DeleteConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import { channels } from '@curbside/api';
import { LONG_PRESS_MS } from '@curbside/domain';
import { connections } from '@curbside/store';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { viewports } from '../support/browser';
import { browserSuite, completeAnyway, type Viewport } from '../support/browser-suite';
import { sessionBody } from '../support/fixtures';
import { type Client, signedIn } from '../support/server';

const SEARCH = 'Search by vehicle #, parent name, make, model, color, or student name...';

const suite = browserSuite();
let front: Client;

beforeAll(async () => {
  front = await signedIn(suite.server.url, 'front_demo');
});

/** Records the frequency of every tone the page plays. */
const RECORD_TONES = `(() => {
  window.played = [];
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...args) {
    window.played.push(this.frequency.value);
    return start.apply(this, args);
  };
})();`;

/** A browser context signed in as `username` with the front queue screen open. */
const openFrontQueue = async (username: string, viewport: Viewport, touch = false) => {
  const { page } = await suite.open(username, '/front-queue', {
    viewport,
    touch,
    initScripts: [RECORD_TONES],
    // The refused duplicate (409) is expected; anything else is a failure.
    expectedErrors: [/status of 409/],
  });
  return page;
};

/** Holds that act: past a card's menu and Help (LONG_PRESS_MS 800 ms), and past Emergency (1 s), with room. */
const HOLD_MS = LONG_PRESS_MS.help + 200;
const LONG_HOLD_MS = LONG_PRESS_MS.emergency * 2;
/** A hold shorter than Emergency's: it sends nothing. */
const SHORT_HOLD_MS = LONG_PRESS_MS.emergency - 400;
/** How long a test watches for something that must not happen (a late toast or tone). */
const WATCH_MS = 1000;

/** Asserts `check` answers `expected` now and throughout the next `ms` (it must not change). */
const staysFor = async <T>(ms: number, check: () => Promise<T>, expected: T) => {
  const until = Date.now() + ms;
  for (;;) {
    expect(await check()).toEqual(expected);
    if (Date.now() >= until) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/**
 * Presses `target` with the mouse for `ms`, or, given `until`, until that shows (a hold that
 * works is held until it has worked: on a loaded machine the page's own timer runs late).
 */
const longPress = async (page: Page, target: Locator, ms: number, until?: Locator) => {
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  if (!box) throw new Error('nothing to press');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.waitForTimeout(ms);
  if (until) await until.waitFor({ timeout: 20_000 });
  await page.mouse.up();
};

/** Holds a finger on the middle of an element for `ms` (a touch screen). */
const longTouch = async (page: Page, target: Locator, ms: number) => {
  // In the middle of the screen, as a person touches what they see: at its edge a card can sit
  // under the "Tap to turn on alert sounds" bar (stuck to the bottom of the screen while the page
  // scrolls), which takes a touch begun on it.
  // Typed by hand: this file is type-checked without the DOM library.
  await target.evaluate((element) =>
    (element as unknown as { scrollIntoView(options: object): void }).scrollIntoView({ block: 'center' }),
  );
  let point = { x: 0, y: 0 };
  await expect
    .poll(
      async () => {
        const box = await target.boundingBox();
        if (!box) return 'nothing to touch';
        point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
        return target.evaluate((element, { x, y }) => {
          const node = element as unknown as {
            contains(other: unknown): boolean;
            ownerDocument: { elementFromPoint(x: number, y: number): unknown };
          };
          return node.contains(node.ownerDocument.elementFromPoint(x, y));
        }, point);
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
  await page.waitForTimeout(ms);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
};

const tonesPlayed = (page: Page) => page.evaluate<number[]>('window.played');

/** A vehicle card: a group named after the vehicle (its number plate is the button inside). */
const card = (page: Page, name: string) => page.getByRole('group', { name, exact: true });

/** The error shown under the vehicle number field (the input's description), or null. */
const numberFieldError = async (page: Page) => {
  const id = await page.getByLabel('Vehicle Number').getAttribute('aria-describedby');
  return id ? page.locator(`[id="${id}"]`).textContent() : null;
};

/** Opens the alert panel, which a phone folds to one line with the count. */
const unfoldAlerts = async (page: Page) => {
  const toggle = page.getByRole('button', { name: /^\d+ alerts?\b/ });
  await toggle.waitFor();
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
};

describe('the front queue screen', () => {
  it('says that no session is running when there is none', async () => {
    const page = await openFrontQueue('front_demo', viewports.phone);
    await page.getByRole('heading', { name: 'No Active Session', exact: true }).waitFor();
    await page
      .getByText(
        'There is currently no active pickup or dropoff session. Please start a new session using the button in the header.',
        { exact: true },
      )
      .waitFor();
    await page.close();
  });

  describe('with a running session', () => {
    let a: Page;
    let b: Page;

    beforeAll(async () => {
      const created = await front.post('/api/sessions', sessionBody());
      expect(created.status).toBe(201);
      a = await openFrontQueue('front_demo', viewports.tablet);
      b = await openFrontQueue('back_demo', viewports.phone, true);
      for (const page of [a, b]) {
        await page.getByRole('heading', { name: 'Add Vehicle to Queue' }).waitFor();
        await page.getByRole('heading', { name: 'Current Queue' }).waitFor();
        expect(await page.getByPlaceholder(SEARCH, { exact: true }).count()).toBe(2);
      }
      // The phone folds the alert panel to one line; the tablet shows it whole.
      expect(await a.getByRole('button', { name: /^\d+ alerts?\b/ }).count()).toBe(0);
      await unfoldAlerts(b);
      for (const page of [a, b]) await suite.connected(page);
    });

    it('asks for a vehicle number before adding', async () => {
      await a.getByRole('button', { name: 'Add to Queue' }).click();
      await a.getByText('Vehicle number is required', { exact: true }).waitFor();
    });

    it('shows a car added with the keypad on another screen without reloading', async () => {
      const keypad = a.getByRole('group', { name: 'Keypad' });
      await keypad.getByRole('button', { name: '1', exact: true }).click();
      await keypad.getByRole('button', { name: '2', exact: true }).click();
      expect(await a.getByLabel('Vehicle Number').inputValue()).toBe('12');
      await a.getByRole('button', { name: 'Add to Queue' }).click();

      await card(b, 'Car 12').waitFor();
      await card(a, 'Car 12').waitFor();
      await b.getByText('Vehicle added successfully:', { exact: true }).first().waitFor();
      await b.getByText('Car 12: Vehicle details unavailable', { exact: true }).first().waitFor();
      expect(await card(b, 'Car 12').getByText('Only vehicle in queue', { exact: true }).count()).toBe(1);
      // The form is cleared (when the answer arrives, which the live event may overtake) and keeps the chosen type.
      await expect.poll(() => a.getByLabel('Vehicle Number').inputValue()).toBe('');
    }, 60_000);

    it('refuses the same car twice: the server message under the number, which stays, and no success toast', async () => {
      // Car 12 was announced on this screen a moment ago ("Vehicle added successfully: Car 12…").
      const keypad = a.getByRole('group', { name: 'Keypad' });
      await keypad.getByRole('button', { name: '1', exact: true }).click();
      await keypad.getByRole('button', { name: '2', exact: true }).click();
      await keypad.getByRole('button', { name: 'Enter', exact: true }).click();
      await expect.poll(() => numberFieldError(a)).toBe('Vehicle 12 is already in the queue');
      expect(await a.getByLabel('Vehicle Number').inputValue()).toBe('12');
      await a.getByText('Failed to add vehicle', { exact: true }).waitFor({ timeout: 5000 });
      // Nothing on this screen says the refused car was added: the earlier announcement (5 s) goes
      // at once (allowing for its fade-out) and does not come back.
      const success = a.getByText('Vehicle added successfully:', { exact: true });
      await expect.poll(() => success.count(), { timeout: 1000 }).toBe(0);
      await staysFor(WATCH_MS, () => success.count(), 0);
      // Typing clears the error.
      await a.getByLabel('Vehicle Number').fill('');
      await expect.poll(() => numberFieldError(a)).toBeNull();
    }, 60_000);

    it('removes a car from both screens with a long touch and Child picked up', async () => {
      await longTouch(b, card(b, 'Car 12'), HOLD_MS);
      await b.getByRole('menuitem', { name: 'Child picked up' }).click();
      await card(b, 'Car 12').waitFor({ state: 'detached' });
      await card(a, 'Car 12').waitFor({ state: 'detached' });
    }, 60_000);

    it('raises a help alert with a long press that the other screen sees', async () => {
      const requested = a.getByRole('button', { name: /^Help Requested/ });
      await longPress(a, a.getByRole('button', { name: /^Help/ }), HOLD_MS, requested);
      // The screen that raised it is told the school admin knows; the others see the alert itself.
      const raisedNote = 'Help requested at Front Queue. The school admin has been notified.';
      await a.getByText(raisedNote, { exact: true }).waitFor();
      // Every staff screen shows the school's alerts on the banner at its top.
      const panel = b.getByRole('region', { name: 'Active alerts' });
      // A phone's banner is one line per alert (its message names it for the Dismiss button).
      const dismiss = panel.getByRole('button', { name: 'Dismiss: Help requested at Front Queue' });
      await panel.getByText(/^HELP Front Queue · by Frankie Front · /).waitFor();
      expect(await b.getByText(raisedNote, { exact: true }).count()).toBe(0);
      await b.getByRole('button', { name: /^Help Requested/ }).waitFor();

      await dismiss.click();
      await dismiss.waitFor({ state: 'detached' });
      await a.getByRole('button', { name: /^Help Requested/ }).waitFor({ state: 'detached' });
      // One 440 Hz tone per screen for this alert, however often the alert arrived.
      expect(await tonesPlayed(a)).toEqual([440]);
      expect(await tonesPlayed(b)).toEqual([440]);
    }, 60_000);

    it('raises an emergency with a 1 s hold and turns it off with another', async () => {
      // A shorter hold sends nothing.
      await longPress(a, a.getByRole('button', { name: /^Emergency/ }), SHORT_HOLD_MS);
      await staysFor(WATCH_MS, () => a.getByRole('button', { name: /^EMERGENCY ACTIVE/ }).count(), 0);

      await longTouch(b, b.getByRole('button', { name: /^Emergency/ }), LONG_HOLD_MS);
      await b.getByRole('button', { name: /^EMERGENCY ACTIVE/ }).waitFor();
      await a.getByRole('button', { name: /^EMERGENCY ACTIVE/ }).waitFor();
      const panel = a.getByRole('region', { name: 'Active alerts' });
      const onBanner = panel.getByRole('button', {
        name: 'Dismiss: Emergency assistance needed at Front Queue',
      });
      await onBanner.waitFor();
      await expect.poll(() => tonesPlayed(a)).toEqual([440, 880, 880, 880]);

      // Turning an emergency off asks first (issue 50).
      await longTouch(b, b.getByRole('button', { name: /^EMERGENCY ACTIVE/ }), LONG_HOLD_MS);
      await b
        .getByRole('dialog', { name: 'Dismiss this emergency?' })
        .getByRole('button', { name: 'Dismiss emergency' })
        .click();
      await b.getByRole('button', { name: /^Emergency/ }).waitFor();
      await b
        .getByText('Alert has been successfully dismissed.', { exact: true })
        .waitFor({ timeout: 20_000 });
      await onBanner.waitFor({ state: 'detached' });
    }, 60_000);

    it('removes a car swiped sideways and completes a pickup from the details dialog', async () => {
      const sessionId = (await front.get('/api/sessions/active')).body.id;
      await front.post('/api/queue', { sessionId, vehicleNumber: '101', vehicleType: 'car' });
      await front.post('/api/queue', { sessionId, vehicleNumber: '3', vehicleType: 'bus' });

      const car = card(a, 'Car 101');
      await car.waitFor();
      const box = (await car.boundingBox())!;
      await a.mouse.move(box.x + 20, box.y + box.height / 2);
      await a.mouse.down();
      await a.mouse.move(box.x + 200, box.y + box.height / 2, { steps: 5 });
      await a.mouse.move(box.x + 360, box.y + box.height / 2, { steps: 5 });
      await a.mouse.up();
      await car.waitFor({ state: 'detached' });

      await card(a, 'Bus B3').click();
      const dialog = a.getByRole('dialog');
      for (const section of ['Contact Information', 'Children', 'Pickup Information']) {
        await dialog.getByRole('heading', { name: section }).waitFor();
      }
      await dialog.getByText('Click anywhere to close', { exact: true }).waitFor();
      await dialog.getByRole('button', { name: 'Complete Pickup' }).click();
      // Nobody released the bus's children: the screen asks first.
      await completeAnyway(a);
      await dialog.waitFor({ state: 'detached' });

      const pickups = a.getByRole('table');
      await pickups.getByRole('cell', { name: 'B3', exact: true }).waitFor();
      const headers = await pickups.getByRole('columnheader').allTextContents();
      expect(headers).toEqual(['Vehicle #', 'Type', 'Family', 'Children', 'Wait Time', 'Completed']);
      await card(b, 'Bus B3').waitFor({ state: 'detached' });
    }, 60_000);

    it('catches up after the server closes the live connection (as API Gateway does after 2 hours)', async () => {
      const sessionId = (await front.get('/api/sessions/active')).body.id;
      const open = await connections.inChannel(suite.server.connectionsDb, channels.staff(1));
      expect(open.length).toBeGreaterThanOrEqual(2);
      // The real SDK client, as the runtime's own handlers use it (in-process: no HTTP route).
      // Imported only now: the functions read their configuration once, when first loaded.
      const { createManagementClient } = await import('@curbside/functions/lib/publisher');
      const management = createManagementClient(suite.server.url, undefined, { inProcess: true });
      for (const id of open) {
        // A row whose socket closed a moment ago (its $disconnect not run yet) answers 410 Gone: closed already.
        await management.send(new DeleteConnectionCommand({ ConnectionId: id })).catch((error: unknown) => {
          if ((error as { name?: string }).name !== 'GoneException') throw error;
        });
      }
      management.destroy();
      // Queued while no screen is connected: no event reaches anyone.
      expect(
        (await front.post('/api/queue', { sessionId, vehicleNumber: '77', vehicleType: 'car' })).status,
      ).toBe(201);
      await card(a, 'Car 77').waitFor({ timeout: 8000 });
      await card(b, 'Car 77').waitFor({ timeout: 8000 });
      // And events flow again on the new connections.
      await front.post('/api/queue', { sessionId, vehicleNumber: '78', vehicleType: 'car' });
      await card(a, 'Car 78').waitFor({ timeout: 3000 });
      await card(b, 'Car 78').waitFor({ timeout: 3000 });
    });

    it('shows a failed add while an emergency is active, and the emergency stays on its banner', async () => {
      const sessionId = (await front.get('/api/sessions/active')).body.id;
      const back = await signedIn(suite.server.url, 'back_demo');
      const raised = await back.post('/api/alerts', {
        sessionId,
        type: 'emergency',
        location: 'Back Queue',
        message: 'Emergency assistance needed at Back Queue',
      });
      expect(raised.body.dismissed).toBe(false);
      const panel = a.getByRole('region', { name: 'Active alerts' });
      const emergency = panel.getByRole('button', {
        name: 'Dismiss: Emergency assistance needed at Back Queue',
      });
      await emergency.waitFor();

      // Car 77 is already queued: refused, and both the field and the toast say so at once.
      await a.getByLabel('Vehicle Number').fill('77');
      await a.getByRole('button', { name: 'Add to Queue' }).click();
      await expect.poll(() => numberFieldError(a)).toBe('Vehicle 77 is already in the queue');
      await a.getByText('Failed to add vehicle', { exact: true }).waitFor({ timeout: 3000 });
      await expect(emergency.isVisible()).resolves.toBe(true);
      // The banner is part of the page: it covers neither the header nor the keypad.
      const header = (await a.locator('header').boundingBox())!;
      const banner = (await panel.boundingBox())!;
      expect(banner.y).toBeGreaterThanOrEqual(header.y + header.height);
      await a.getByLabel('Vehicle Number').fill('');
    }, 60_000);

    it('does not sound an alert again after a reload on the screen that already heard it', async () => {
      expect(await tonesPlayed(a)).toContain(880);
      await a.reload();
      const panel = a.getByRole('region', { name: 'Active alerts' });
      const dismiss = panel.getByRole('button', {
        name: 'Dismiss: Emergency assistance needed at Back Queue',
      });
      await dismiss.waitFor();
      await staysFor(WATCH_MS, () => tonesPlayed(a), []);
      await dismiss.click();
      await a.getByRole('button', { name: 'Dismiss emergency' }).click();
      await dismiss.waitFor({ state: 'detached' });
    }, 60_000);

    it('logs no errors in either screen', () => {
      expect(suite.errors).toEqual([]);
    });
  });
});
