import { DeleteConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import { channels } from '@curbside/api';
import { connections } from '@curbside/store';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuilt, launchBrowser, viewports } from '../support/browser';
import { sessionBody } from '../support/fixtures';
import { type Client, signedIn, startTestServer } from '../support/server';

const SEARCH = 'Search by vehicle #, parent name, make, model, color, or student name...';

let server: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;
let front: Client;
const contexts: BrowserContext[] = [];
const errors: string[] = [];

beforeAll(async () => {
  const webDist = await ensureWebBuilt();
  server = await startTestServer({ webDist });
  front = await signedIn(server.url, 'front_demo');
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await server?.close();
});

/** A browser context signed in as `username` with the front queue screen open. */
const openFrontQueue = async (
  username: string,
  viewport: { width: number; height: number },
  touch = false,
) => {
  const context = await browser.newContext({
    viewport,
    baseURL: server.url,
    hasTouch: touch,
    isMobile: touch,
  });
  contexts.push(context);
  // Records the frequency of every tone the page plays.
  await context.addInitScript({
    content: `(() => {
      window.played = [];
      const start = OscillatorNode.prototype.start;
      OscillatorNode.prototype.start = function (...args) {
        window.played.push(this.frequency.value);
        return start.apply(this, args);
      };
    })();`,
  });
  const login = await context.request.post('/api/login', { data: { username, password: 'demo1234' } });
  expect(login.status()).toBe(200);
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(`${username}: ${error.message}`));
  page.on('console', (message) => {
    // The refused duplicate (409) is expected; anything else is a failure.
    if (message.type() === 'error' && !/status of 409/.test(message.text())) {
      errors.push(`${username}: ${message.text()}`);
    }
  });
  await page.goto('/front-queue');
  return page;
};

/** Holds the primary mouse button on the middle of an element for `ms`. */
const longPress = async (page: Page, target: Locator, ms: number) => {
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  if (!box) throw new Error('nothing to press');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.waitForTimeout(ms);
  await page.mouse.up();
};

/** Holds a finger on the middle of an element for `ms` (a touch screen). */
const longTouch = async (page: Page, target: Locator, ms: number) => {
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  if (!box) throw new Error('nothing to touch');
  const cdp = await page.context().newCDPSession(page);
  const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
  await page.waitForTimeout(ms);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
};

const tonesPlayed = (page: Page) => page.evaluate<number[]>('window.played');

const card = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

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
      // Give both live connections a moment to open.
      await a.waitForTimeout(500);
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
      // The form is cleared and keeps the chosen type.
      expect(await a.getByLabel('Vehicle Number').inputValue()).toBe('');
    }, 60_000);

    it('refuses the same car twice with the server message', async () => {
      const keypad = a.getByRole('group', { name: 'Keypad' });
      await keypad.getByRole('button', { name: '1', exact: true }).click();
      await keypad.getByRole('button', { name: '2', exact: true }).click();
      await keypad.getByRole('button', { name: 'Enter', exact: true }).click();
      await a.getByText('Failed to add vehicle', { exact: true }).waitFor({ timeout: 20_000 });
      await a.getByText('Vehicle 12 is already in the queue', { exact: true }).waitFor();
      await a.getByLabel('Vehicle Number').fill('');
    }, 60_000);

    it('removes a car from both screens with a long touch and Child picked up', async () => {
      await longTouch(b, card(b, 'Car 12'), 1000);
      await b.getByRole('menuitem', { name: 'Child picked up' }).click();
      await card(b, 'Car 12').waitFor({ state: 'detached' });
      await card(a, 'Car 12').waitFor({ state: 'detached' });
    }, 60_000);

    it('raises a help alert with a long press that the other screen sees', async () => {
      await longPress(a, a.getByRole('button', { name: /^Help/ }), 1000);
      await a.getByRole('button', { name: /^Help Requested/ }).waitFor();
      // The screen that raised it is told the school admin knows; the others see the alert itself.
      const raisedNote = 'Help requested at Front Queue. The school admin has been notified.';
      await a.getByText(raisedNote, { exact: true }).waitFor();
      const panel = b.getByRole('region', { name: 'Alerts: Front Queue' });
      await panel.getByText('Help requested at Front Queue', { exact: true }).waitFor();
      expect(await b.getByText(raisedNote, { exact: true }).count()).toBe(0);
      await b.getByRole('button', { name: /^Help Requested/ }).waitFor();

      await panel.getByRole('button', { name: 'Dismiss: Help requested at Front Queue' }).click();
      await panel.getByText('Help requested at Front Queue', { exact: true }).waitFor({ state: 'detached' });
      await a.getByRole('button', { name: /^Help Requested/ }).waitFor({ state: 'detached' });
      // One 440 Hz tone per screen for this alert, however often the alert arrived.
      expect(await tonesPlayed(a)).toEqual([440]);
      expect(await tonesPlayed(b)).toEqual([440]);
    }, 60_000);

    it('raises an emergency with a 1 s hold and turns it off with another', async () => {
      // A shorter hold sends nothing.
      await longPress(a, a.getByRole('button', { name: /^Emergency/ }), 600);
      await a.waitForTimeout(700);
      expect(await a.getByRole('button', { name: /^EMERGENCY ACTIVE/ }).count()).toBe(0);

      await longTouch(b, b.getByRole('button', { name: /^Emergency/ }), 1300);
      await b.getByRole('button', { name: /^EMERGENCY ACTIVE/ }).waitFor();
      await a.getByRole('button', { name: /^EMERGENCY ACTIVE/ }).waitFor();
      const panel = a.getByRole('region', { name: 'Alerts: Front Queue' });
      await panel.getByText('Emergency assistance needed at Front Queue', { exact: true }).waitFor();
      await a.waitForTimeout(200);
      expect(await tonesPlayed(a)).toEqual([440, 880, 880, 880]);

      await longTouch(b, b.getByRole('button', { name: /^EMERGENCY ACTIVE/ }), 1300);
      await b.getByRole('button', { name: /^Emergency/ }).waitFor();
      await b
        .getByText('Alert has been successfully dismissed.', { exact: true })
        .waitFor({ timeout: 20_000 });
      await panel
        .getByText('Emergency assistance needed at Front Queue', { exact: true })
        .waitFor({ state: 'detached' });
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
      await dialog.waitFor({ state: 'detached' });

      const pickups = a.getByRole('table');
      await pickups.getByRole('cell', { name: 'B3', exact: true }).waitFor();
      const headers = await pickups.getByRole('columnheader').allTextContents();
      expect(headers).toEqual(['Vehicle #', 'Type', 'Family', 'Children', 'Wait Time', 'Completed']);
      await card(b, 'Bus B3').waitFor({ state: 'detached' });
    }, 60_000);

    it('catches up after the server closes the live connection (as API Gateway does after 2 hours)', async () => {
      const sessionId = (await front.get('/api/sessions/active')).body.id;
      const open = await connections.inChannel(server.connectionsDb, channels.staff(1));
      expect(open.length).toBeGreaterThanOrEqual(2);
      // The real SDK client, as the runtime's own handlers use it (in-process: no HTTP route).
      // Imported only now: the functions read their configuration once, when first loaded.
      const { createManagementClient } = await import('@curbside/functions/lib/publisher');
      const management = createManagementClient(server.url, undefined, { inProcess: true });
      for (const id of open) await management.send(new DeleteConnectionCommand({ ConnectionId: id }));
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

    it('logs no errors in either screen', () => {
      expect(errors).toEqual([]);
    });
  });
});
