import { join } from 'node:path';
import { LONG_PRESS_MS } from '@curbside/domain';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, shotsDir, viewports } from '../support/browser';
import { browserSuite, switchTheme, type Theme } from '../support/browser-suite';
import { sessionBody } from '../support/fixtures';
import { openLive } from '../support/live';
import type { Client } from '../support/server';

/**
 * What a walk-through of the screens on a 390×844 touch phone and a
 * 1024×768 tablet found (issue 34), each at both sizes: the Children picker
 * of Add Parent picks a child; the shown-once sign-in shows its username and
 * password whole; roster rows show Edit and Deactivate; the driver's Help and
 * Emergency need a hold; the Bus Tracking card shows without a session; an
 * unknown vehicle number is queued and said to be unregistered, with a way to
 * correct it; and axe on the sign-in dialog and the parent dashboard in the
 * light, dark and bright themes. Screenshots go to SHOTS_DIR.
 */
type Size = keyof typeof viewports;
const SIZES = Object.keys(viewports) as Size[];
const THEMES: Theme[] = ['light', 'dark', 'bright'];

// No page signs out, and each test's pages close when it ends: one sign-in per account, and no
// page left behind with its live connection and polls while the later tests run.
const suite = browserSuite({ reuseSignIns: true, closeAfterEach: true });
let admin: Client;
let front: Client;
let back: Client;

beforeAll(async () => {
  [admin, front, back] = await Promise.all([
    suite.client('admin_demo'),
    suite.client('front_demo'),
    suite.client('back_demo'),
  ]);
});

/** A page at `size` (a phone is a touch screen), signed in as `username` (staff or parent), in the light theme. */
const open = async (path: string, size: Size, options: { username?: string } = {}) => {
  const { page } = await suite.open(options.username ?? null, path, {
    viewport: viewports[size],
    touch: size === 'phone',
    theme: 'light',
    // Refusals the screens show (a driver's link read twice, the health check made to fail).
    expectedErrors: [/status of (40\d|503)|WebSocket/],
    label: `${path} ${size}`,
  });
  return page;
};

const shoot = (page: Page, name: string) =>
  page.screenshot({ path: join(shotsDir(), `walkthrough-${name}.png`) });

const text = (scope: Page | Locator, value: string | RegExp) =>
  scope.getByText(value, typeof value === 'string' ? { exact: true } : {});

/** The page's own width: nothing may make it wider than the screen. */
const pageWidth = (page: Page) =>
  page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number);

/** Whether the element lies wholly inside the viewport horizontally and its text is not cut. */
const wholeOnScreen = async (page: Page, target: Locator) => {
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  const viewport = page.viewportSize();
  if (!box || !viewport) return false;
  const cut = await target.evaluate((element: any) => element.scrollWidth > element.clientWidth + 1);
  return box.x >= 0 && box.x + box.width <= viewport.width + 0.5 && !cut;
};

const management = (page: Page) => page.getByRole('region', { name: 'School Management', exact: true });

describe('Add Parent’s Children picker', () => {
  for (const size of SIZES) {
    it(`picks a child by name (${size})`, async () => {
      const page = await open('/school-admin', size, { username: 'admin_demo' });
      const panel = management(page);
      await panel.getByRole('tab', { name: /Parents/ }).click();
      await panel.getByRole('button', { name: 'Add Parent', exact: true }).click();
      const form = page.getByRole('dialog', { name: 'Add parent' });
      const picker = form.getByRole('textbox', { name: 'Children' });
      await picker.click();
      await picker.pressSequentially('Ava', { delay: 50 });
      const option = page.getByRole('option', { name: /^Ava Martinez/ });
      await option.waitFor();
      await shoot(page, `children-picker-open-${size}`);
      expect(await pageWidth(page)).toBeLessThanOrEqual(viewports[size].width);
      if (size === 'phone') await option.tap();
      else await option.click();
      await text(form, /Ava Martinez/)
        .first()
        .waitFor();
      await shoot(page, `children-picker-picked-${size}`);
      expect(await pageWidth(page)).toBeLessThanOrEqual(viewports[size].width);
    }, 60_000);
  }
});

describe('the shown-once sign-in', () => {
  for (const size of SIZES) {
    it(`shows the username and one-time password whole, readable in every theme (${size})`, async () => {
      // One page, its theme switched in place (as another tab of the app would) for each.
      const page = await open('/school-admin', size, { username: 'admin_demo' });
      for (const theme of THEMES) {
        await switchTheme(page, theme);
        const panel = management(page);
        await panel.getByRole('tab', { name: /Teachers/ }).click();
        await panel.getByRole('button', { name: 'Add Teacher', exact: true }).click();
        const form = page.getByRole('dialog', { name: 'Add teacher' });
        // Long enough to need two lines on a phone.
        const last = `Longfellowhampton${size[0]}${theme[0]}`;
        await form.getByLabel('First name').fill('Maximiliana');
        await form.getByLabel('Last name').fill(last);
        await form.getByLabel('Email').fill(`${last}@lincoln.example`.toLowerCase());
        await form.getByRole('button', { name: 'Save' }).click();
        const shown = page.getByRole('dialog', { name: `Sign-in for Maximiliana ${last}` });
        const username = shown.getByTestId('credentials-username');
        const password = shown.getByTestId('credentials-password');
        await expect.poll(() => username.textContent()).toBe(`maximiliana.${last.toLowerCase()}`);
        expect(await password.textContent()).toMatch(/^[A-Za-z0-9]{12}$/);
        expect(await wholeOnScreen(page, username)).toBe(true);
        expect(await wholeOnScreen(page, password)).toBe(true);
        expect(await pageWidth(page)).toBeLessThanOrEqual(viewports[size].width);
        await text(shown, 'Shown once').waitFor();
        await shoot(page, `credentials-${size}-${theme}`);
        await expectAccessible(page);
        await shown.getByRole('button', { name: 'Done' }).click();
        await shown.waitFor({ state: 'detached' });
      }
    }, 120_000);
  }
});

describe('the roster tables', () => {
  const tabs = ['Students', 'Teachers', 'Parents', 'Vehicles'] as const;
  for (const size of SIZES) {
    it(`show each row's Edit and Deactivate whole on the screen (${size})`, async () => {
      const page = await open('/school-admin', size, { username: 'admin_demo' });
      const panel = management(page);
      for (const tab of tabs) {
        await panel.getByRole('tab', { name: new RegExp(tab) }).click();
        const edit = panel.getByRole('button', { name: /^Edit / }).first();
        const deactivate = panel.getByRole('button', { name: /^Deactivate / }).first();
        await edit.waitFor();
        expect(await wholeOnScreen(page, edit), `${tab}: Edit`).toBe(true);
        expect(await wholeOnScreen(page, deactivate), `${tab}: Deactivate`).toBe(true);
        expect(await pageWidth(page)).toBeLessThanOrEqual(viewports[size].width);
        await shoot(page, `roster-${tab.toLowerCase()}-${size}`);
      }
      // The parents' row actions work from there.
      await panel
        .getByRole('button', { name: /^Edit / })
        .first()
        .click();
      await page.getByRole('dialog', { name: /^Edit / }).waitFor();
    }, 90_000);
  }
});

describe('the Bus Tracking card', () => {
  for (const size of SIZES) {
    it(`shows with no session: the driver QR code, Pop Out and Rotate links (${size})`, async () => {
      expect((await admin.get('/api/sessions/active')).body).toBeFalsy();
      const page = await open('/school-admin', size, { username: 'admin_demo' });
      await page.getByRole('heading', { name: 'No Active Session' }).waitFor();
      const card = page.getByRole('region', { name: 'Bus Tracking', exact: true });
      await card.waitFor();
      for (const name of ['Pop Out', 'QR Code', 'Rotate links']) {
        // Enabled once the links are read.
        await expect.poll(() => card.getByRole('button', { name }).isEnabled()).toBe(true);
      }
      await shoot(page, `bus-tracking-no-session-${size}`);
      await card.getByRole('button', { name: 'QR Code' }).click();
      const dialog = page.getByRole('dialog', { name: 'Bus driver page' });
      await dialog.getByRole('img', { name: 'QR code of the bus driver page' }).waitFor();
      await text(dialog, /\/bus-driver\?t=/).waitFor();
    }, 60_000);
  }
});

describe('System Status', () => {
  it('shows the database Online from the health check, and Offline when it fails', async () => {
    const page = await open('/school-admin', 'tablet', { username: 'admin_demo' });
    const status = page.getByRole('region', { name: 'System Status', exact: true });
    await text(status, 'Online').waitFor();
    await page.route('**/api/health', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"Unavailable"}' }),
    );
    await page.reload();
    await text(page.getByRole('region', { name: 'System Status', exact: true }), 'Offline').waitFor();
  }, 60_000);
});

describe('with a session running', () => {
  let sessionId: number;
  beforeAll(async () => {
    const session = await front.post('/api/sessions', sessionBody());
    expect(session.status).toBe(201);
    sessionId = session.body.id;
  });
  afterAll(async () => {
    await admin.put(`/api/sessions/${sessionId}/end`);
  });

  /** A hold too short to send (a dashboard mount's bump), and holds past Help's and Emergency's (LONG_PRESS_MS). */
  const BUMP_MS = 300;
  const HELP_HOLD_MS = LONG_PRESS_MS.help + 300;
  const EMERGENCY_HOLD_MS = LONG_PRESS_MS.emergency + 300;

  /** Holds a finger (phone) or the mouse button (tablet) on the middle of `target` for `ms`. */
  const hold = async (page: Page, target: Locator, ms: number) => {
    await target.scrollIntoViewIfNeeded();
    const box = await target.boundingBox();
    if (!box) throw new Error('nothing to hold');
    const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    if (page.viewportSize()?.width === viewports.phone.width) {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
      await page.waitForTimeout(ms);
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      await cdp.detach();
    } else {
      await page.mouse.move(point.x, point.y);
      await page.mouse.down();
      await page.waitForTimeout(ms);
      await page.mouse.up();
    }
  };

  for (const size of SIZES) {
    it(`the driver's Help and Emergency send nothing on a tap and send on a hold (${size})`, async () => {
      const links = (await admin.get('/api/bus-links')).body;
      const page = await open(links.driverUrl, size);
      await page.getByRole('textbox', { name: 'Select Bus' }).click();
      await page.getByRole('option', { name: 'Bus 3 - Route C' }).click();
      const help = page.getByRole('button', { name: 'Help Hold to request help' });
      const emergency = page.getByRole('button', { name: 'Emergency Hold to call an emergency' });
      // A tap (an accident on a dashboard mount) sends nothing.
      if (size === 'phone') await help.tap();
      else await help.click();
      await hold(page, emergency, BUMP_MS);
      // A hold sends: first help (800 ms), then the emergency (1000 ms).
      await hold(page, help, HELP_HOLD_MS);
      await text(page, 'Help Request Sent').waitFor();
      await shoot(page, `driver-help-sent-${size}`);
      await hold(page, emergency, EMERGENCY_HOLD_MS);
      await text(page, 'Emergency Alert Sent').waitFor({ timeout: 20_000 });
      const alerts = (await front.get(`/api/alerts?sessionId=${sessionId}`)).body as Array<{
        id: number;
        type: string;
        status: string;
        source?: string;
      }>;
      const mine = alerts.filter((alert) => alert.status === 'active' && alert.source === 'bus_driver');
      // One of each: the tap and the short press sent nothing.
      expect(mine.map((alert) => alert.type).sort()).toEqual(['emergency', 'help']);
      for (const alert of mine) await front.put(`/api/alerts/${alert.id}/dismiss`);
      await expectAccessible(page);
    }, 60_000);
  }

  for (const size of SIZES) {
    it(`a mistyped number is queued, said to be unregistered, and can be removed and re-entered (${size})`, async () => {
      const number = size === 'phone' ? '99999' : '99998';
      const page = await open('/front-queue', size, { username: 'front_demo' });
      const add = page.getByRole('region', { name: 'Add Vehicle to Queue' });
      await add.getByLabel('Vehicle Number').fill(number);
      await add.getByRole('button', { name: 'Add to Queue' }).click();
      const warning = add.getByRole('alert');
      await text(warning, `Car ${number} is not registered`).waitFor();
      // Queued all the same (a family in a borrowed car is not turned away), and the toast says it too.
      const queued = (await front.get(`/api/queue?sessionId=${sessionId}`)).body as Array<{
        id: number;
        vehicleNumber: string;
      }>;
      expect(queued.some((entry) => entry.vehicleNumber === number)).toBe(true);
      await text(page, 'Vehicle added successfully:').first().waitFor();
      await text(page, 'Not registered: this number is not on the school’s vehicle list').first().waitFor();
      await shoot(page, `unregistered-${size}`);
      await expectAccessible(page);
      await warning.getByRole('button', { name: 'Remove and re-enter' }).click();
      await warning.waitFor({ state: 'detached' });
      await expect.poll(() => add.getByLabel('Vehicle Number').inputValue()).toBe(number);
      await expect
        .poll(
          async () =>
            ((await front.get(`/api/queue?sessionId=${sessionId}`)).body as Array<{ vehicleNumber: string }>)
              .map((entry) => entry.vehicleNumber)
              .includes(number),
          { timeout: 20_000 },
        )
        .toBe(false);
      // A registered car says nothing of the kind.
      await add.getByLabel('Vehicle Number').fill(size === 'phone' ? '102' : '103');
      await add.getByRole('button', { name: 'Add to Queue' }).click();
      await expect.poll(() => add.getByLabel('Vehicle Number').inputValue()).toBe('');
      expect(await add.getByRole('alert').count()).toBe(0);
    }, 60_000);
  }

  it('the parent dashboard with a child picked up is readable in every theme (phone and tablet)', async () => {
    const queued = await front.post('/api/queue', { sessionId, vehicleNumber: '101', vehicleType: 'car' });
    expect(queued.status).toBe(201);
    const batch = (await back.post('/api/batches', { sessionId, vehicleType: 'car', fill: true })).body;
    expect(
      (await back.put(`/api/batches/${batch.id}`, { status: 'completed', confirmUnreleased: true })).status,
    ).toBe(200);
    for (const size of SIZES) {
      // One page, its theme switched in place (as another tab of the app would) for each.
      const page = await open('/parent-dashboard', size, { username: 'parent_demo' });
      for (const theme of THEMES) {
        await switchTheme(page, theme);
        const badge = text(page, 'Picked Up');
        await badge.waitFor();
        await shoot(page, `parent-picked-up-${size}-${theme}`);
        await expectAccessible(page);
      }
    }
  }, 120_000);
});

describe('the bus map on a phone', () => {
  it('shows each bus’s Center button whole, and a legend with the map’s and the list’s colours', async () => {
    const links = (await admin.get('/api/bus-links')).body;
    const page = await open(links.mapUrl, 'phone');
    await text(page, 'Interactive Bus Map').waitFor();
    const driver = await openLive(suite.server.url, {
      query: `?t=${new URL(links.driverUrl).searchParams.get('t')}`,
    });
    const send = () =>
      driver.send({
        type: 'BUS_LOCATION_UPDATE',
        data: {
          busId: 'B4',
          location: {
            latitude: 29.9811,
            longitude: -81.4457,
            speed: 6.7,
            accuracy: 4,
            timestamp: Date.now(),
          },
        },
      });
    send();
    const center = page.getByRole('button', { name: 'Center on B4' });
    await center.waitFor();
    expect(await wholeOnScreen(page, center)).toBe(true);
    const legend = page.getByLabel('Legend');
    await text(legend, /grey on the map, yellow in the list/).waitFor();
    await shoot(page, 'bus-map-phone');
    driver.send({ type: 'BUS_TRACKING_STOPPED', data: { busId: 'B4' } });
    await driver.close();
  }, 60_000);
});

it('met no page errors', () => {
  expect(suite.errors).toEqual([]);
});
