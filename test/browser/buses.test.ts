import { join } from 'node:path';
import { BUS_LINK_MISSING, type BusLinks } from '@curbside/domain';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible as expectAccessiblePage, shotsDir, viewports } from '../support/browser';
import { browserSuite, painted, type Viewport } from '../support/browser-suite';
import { sessionBody, tokenOf } from '../support/fixtures';
import { type LiveClient, openLive } from '../support/live';
import { type Client, signedIn } from '../support/server';

/**
 * The buses in Chromium: a driver's phone opened from the school's driver
 * link tracks Bus 2 with a scripted position; the map opened from the map
 * link follows it; Help reaches the front queue; rotating the links stops
 * the old map page. There are no map tiles here: the map shows its
 * background, markers and popups.
 */
const suite = browserSuite();
let admin: Client;
let front: Client;
let links: BusLinks;
const drivers: LiveClient[] = [];

beforeAll(async () => {
  [admin, front] = await Promise.all([
    signedIn(suite.server.url, 'admin_demo'),
    signedIn(suite.server.url, 'front_demo'),
  ]);
  links = (await admin.get('/api/bus-links')).body;
});

afterAll(async () => {
  for (const driver of drivers) await driver.close();
});

const shoot = (page: Page, name: string) =>
  page.screenshot({ path: join(shotsDir(), `buses-${name}.png`), fullPage: true });

const text = (scope: Page | Locator, value: string | RegExp) =>
  scope.getByText(value, typeof value === 'string' ? { exact: true } : {});

/** A page in its own context (phone or tablet), at a link or signed in as `username`. */
const open = (url: string, options: { viewport?: Viewport; username?: string; geolocation?: boolean } = {}) =>
  suite.open(options.username ?? null, url, {
    viewport: options.viewport ?? viewports.tablet,
    touch: options.viewport === viewports.phone,
    initScripts: options.geolocation ? [`(${scriptedGeolocation})()`] : [],
    // Refusals the pages show (an old link, a closed connection) are expected.
    expectedErrors: [/status of 40\d/, /WebSocket/, /net::ERR_/],
  });

/**
 * The phone's position, scripted: `moveTo(latitude, longitude)` in the page
 * reports a new fix to every watcher. (Chromium's own emulation reports a
 * POSITION_UNAVAILABLE error between two overrides, which stops tracking as
 * the specification says a location error does.)
 */
function scriptedGeolocation() {
  // No DOM types in the tests' compilation: the shapes the page's geolocation uses.
  type Fix = { coords: Record<string, number | null>; timestamp: number };
  type Watcher = (position: Fix) => void;
  const page = globalThis as unknown as { navigator: object; moveTo?: unknown };
  const watchers = new Map<number, Watcher>();
  let fix = { latitude: 29.9811, longitude: -81.4457 };
  let next = 1;
  const report = (callback: Watcher) =>
    callback({
      coords: { ...fix, accuracy: 5, speed: 6.7, heading: null, altitude: null, altitudeAccuracy: null },
      timestamp: Date.now(),
    });
  Object.defineProperty(page.navigator, 'geolocation', {
    value: {
      watchPosition: (callback: Watcher) => {
        const id = next++;
        watchers.set(id, callback);
        setTimeout(() => watchers.get(id) && report(callback), 0);
        return id;
      },
      clearWatch: (id: number) => watchers.delete(id),
      getCurrentPosition: (callback: Watcher) => setTimeout(() => report(callback), 0),
    },
  });
  page.moveTo = (latitude: number, longitude: number) => {
    fix = { latitude, longitude };
    for (const callback of watchers.values()) report(callback);
  };
}

/** axe on the page, but the map's canvas and tile attribution (maplibre's, not ours). */
const expectAccessible = (page: Page) =>
  expectAccessiblePage(page, ['.maplibregl-canvas-container', '.maplibregl-ctrl-attrib']);

const marker = (page: Page, busId: string) => page.getByRole('button', { name: `Bus ${busId}`, exact: true });
/** The marker's place on the screen (its CSS transform). */
const placeOf = (page: Page, busId: string) =>
  marker(page, busId).evaluate(
    (element) => (element as unknown as { style: { transform: string } }).style.transform,
  );

/** A driver's connection from the test itself (more buses for the screenshot). */
const driverSocket = async (token: string) => {
  const driver = await openLive(suite.server.url, { query: `?t=${token}` });
  drivers.push(driver);
  return driver;
};

describe('the bus pages', () => {
  let mapPage: Page;

  it('explain how to get a link when opened without one, and do nothing else', async () => {
    const { page: driver } = await open('/bus-driver', { viewport: viewports.phone });
    await text(driver, BUS_LINK_MISSING.driver).waitFor();
    const { page: map } = await open(`/bus-tracking?t=${'A'.repeat(32)}`);
    await text(map, BUS_LINK_MISSING.map).waitFor();
    expect(await map.getByText('Interactive Bus Map').count()).toBe(0);
  }, 60_000);

  it('track Bus 2 from the driver link on a phone, on the map of the map link within 1.5 s', async () => {
    ({ page: mapPage } = await open(links.mapUrl));
    await text(mapPage, 'Interactive Bus Map').waitFor();
    await text(mapPage, 'No buses currently tracking').waitFor();
    await text(mapPage, 'Live').waitFor();
    expect(await mapPage.getByRole('button', { name: 'Fit all buses' }).isDisabled()).toBe(true);

    const { page: driver } = await open(links.driverUrl, {
      viewport: viewports.phone,
      geolocation: true,
    });
    await text(driver, 'Connected').waitFor();
    await driver.getByRole('button', { name: 'Start Tracking' }).click();
    await text(driver, 'Please select a bus first').waitFor();
    await driver.getByRole('textbox', { name: 'Select Bus' }).click();
    await driver.getByRole('option', { name: 'Bus 2 - Route B' }).click();
    await driver.getByRole('button', { name: 'Start Tracking' }).click();
    await text(driver, 'Latitude: 29.981100').waitFor();
    expect(await driver.getByRole('textbox', { name: 'Select Bus' }).isDisabled()).toBe(true);

    await marker(mapPage, 'B2').waitFor({ timeout: 5000 });
    await text(mapPage, '1 bus').waitFor();
    const before = await placeOf(mapPage, 'B2');
    // The bus moves: the map follows within 1.5 s of the driver's phone seeing it.
    for (const [latitude, longitude] of [
      [29.9821, -81.4447],
      [29.9831, -81.4437],
    ] as const) {
      await driver.evaluate(
        (fix) =>
          (globalThis as unknown as { moveTo: (a: number, b: number) => void }).moveTo(
            fix.latitude,
            fix.longitude,
          ),
        { latitude, longitude },
      );
      await text(driver, `Latitude: ${latitude.toFixed(6)}`).waitFor();
      const moved = Date.now();
      await text(mapPage.getByRole('list', { name: 'Active Buses' }), 'B2').waitFor();
      await expect.poll(() => placeOf(mapPage, 'B2'), { timeout: 1500 }).not.toBe(before);
      expect(Date.now() - moved).toBeLessThan(1500);
      await marker(mapPage, 'B2').click();
      await text(mapPage, `Latitude: ${latitude.toFixed(6)}`).waitFor({ timeout: 1500 });
      await mapPage.locator('.maplibregl-popup-close-button').click();
    }
    await driver.getByRole('list', { name: 'Recent Locations' }).getByRole('listitem').nth(2).waitFor();
    await mapPage.getByRole('button', { name: 'Fit all buses' }).click();
    await shoot(driver, 'driver-tracking');
    await expectAccessible(driver);

    // A Help alert reaches the front queue's alert panel, with its toast.
    const session = await front.post('/api/sessions', sessionBody());
    expect(session.status).toBeLessThan(300);
    const { page: frontQueue } = await open('/front-queue', { username: 'front_demo' });
    await frontQueue.getByRole('heading', { name: 'Current Queue' }).waitFor();
    // Held (a tap sends nothing: 800 ms) until the phone says it was sent.
    const help = await driver.getByRole('button', { name: /^Help/ }).boundingBox();
    if (!help) throw new Error('no Help button');
    const cdp = await driver.context().newCDPSession(driver);
    const point = { x: help.x + help.width / 2, y: help.y + help.height / 2 };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
    await text(driver, 'Help Request Sent').waitFor();
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await cdp.detach();
    // On the banner of alerts at the top of the staff screens, one line.
    await frontQueue
      .getByRole('region', { name: 'Active alerts', exact: true })
      .getByRole('listitem')
      .filter({ hasText: /^HELP Bus 2 · by Bus 2 driver · / })
      .waitFor();
    expect((await admin.put(`/api/sessions/${session.body.id}/end`)).status).toBe(200);

    // Stop takes the bus off the map.
    await driver.getByRole('button', { name: 'Stop Tracking' }).click();
    await marker(mapPage, 'B2').waitFor({ state: 'detached' });
    await text(mapPage, 'No buses currently tracking').waitFor();
  }, 120_000);

  it('shows three buses, their popups and the Active Buses list', async () => {
    const driver = await driverSocket(tokenOf(links.driverUrl));
    const places = [
      ['B1', 29.9811, -81.4457],
      ['B3', 29.9801, -81.4467],
      ['B5', 29.9825, -81.4441],
    ] as const;
    // Three drivers' phones, each sending its position every second.
    const send = () => {
      for (const [busId, latitude, longitude] of places) {
        driver.send({
          type: 'BUS_LOCATION_UPDATE',
          data: {
            busId,
            location: { latitude, longitude, speed: 6.7, accuracy: 4, timestamp: Date.now() },
          },
        });
      }
    };
    send();
    const every = setInterval(send, 1000);
    for (const [busId] of places) await marker(mapPage, busId).waitFor();
    await text(mapPage, '3 buses').waitFor();
    const list = mapPage.getByRole('list', { name: 'Active Buses' });
    expect(await list.getByRole('listitem').count()).toBe(3);
    await text(list, 'B3').waitFor();
    await mapPage.getByRole('button', { name: 'Fit all buses' }).click();
    await marker(mapPage, 'B3').click();
    const popup = mapPage.locator('.maplibregl-popup');
    await text(popup, 'Bus B3').waitFor();
    await text(popup, 'Speed: 15.0 mph').waitFor();
    await text(popup, 'Accuracy: 4.0 m').waitFor();
    await popup.getByRole('button', { name: 'Center on Bus' }).click();
    await shoot(mapPage, 'map-three-buses');
    await expectAccessible(mapPage);
    clearInterval(every);
    for (const [busId] of places) {
      driver.send({ type: 'BUS_TRACKING_STOPPED', data: { busId } });
    }
    await text(mapPage, 'No buses currently tracking').waitFor();
  }, 60_000);

  it('keeps a bus that drives out of view on the tablet map until the user pans; Fit all buses follows again', async () => {
    const driver = await driverSocket(tokenOf(links.driverUrl));
    // Each position has its own speed, so the Active Buses list shows when the map has it.
    let speed = 12;
    const drive = (latitude: number, longitude: number) =>
      driver.send({
        type: 'BUS_LOCATION_UPDATE',
        data: {
          busId: 'B3',
          location: { latitude, longitude, speed, accuracy: 5, timestamp: Date.now() },
        },
      });
    /** Whether the marker's centre is inside the map's box (what the user can see). */
    const inView = async () => {
      const map = await mapPage.getByTestId('bus-map').boundingBox();
      const box = await marker(mapPage, 'B3').boundingBox();
      if (!map || !box) return false;
      const x = box.x + box.width / 2;
      const y = box.y + box.height / 2;
      return x >= map.x && x <= map.x + map.width && y >= map.y && y <= map.y + map.height;
    };
    const list = mapPage.getByRole('list', { name: 'Active Buses' });
    /**
     * Sends a position and waits until the map has handled it: the list shows its speed, and
     * the frames after it are drawn (the marker and the view moved with it). Not the marker's
     * place on the screen: a map that follows the bus re-centres it, and the place stays.
     */
    const driveTo = async (latitude: number, longitude: number) => {
      speed += 1;
      drive(latitude, longitude);
      await text(list, `${(speed * 2.23694).toFixed(1)} mph`).waitFor({ timeout: 15_000 });
      await painted(mapPage);
    };
    drive(29.9811, -81.4457);
    await marker(mapPage, 'B3').waitFor();
    // The test before centred the map on one bus (the user took the view): Fit all buses gives it back.
    await mapPage.getByRole('button', { name: 'Fit all buses' }).click();
    await expect.poll(inView, { timeout: 15_000 }).toBe(true);
    // 40 km north: far out of the view it had; the map comes along.
    await driveTo(30.35, -81.4457);
    await expect.poll(inView, { timeout: 15_000 }).toBe(true);
    // The user drags the map: from now on the view is theirs.
    const map = (await mapPage.getByTestId('bus-map').boundingBox()) as {
      x: number;
      y: number;
      width: number;
      height: number;
    };
    await mapPage.mouse.move(map.x + map.width / 2, map.y + map.height / 2);
    await mapPage.mouse.down();
    await mapPage.mouse.move(map.x + map.width / 2 - 150, map.y + map.height / 2 + 60, { steps: 8 });
    await mapPage.mouse.up();
    await driveTo(30.9, -81.4457);
    expect(await inView()).toBe(false);
    await mapPage.getByRole('button', { name: 'Fit all buses' }).click();
    await expect.poll(inView, { timeout: 15_000 }).toBe(true);
    // Following again: the next position out of view brings the view along.
    await driveTo(30.2, -81.9);
    await expect.poll(inView, { timeout: 15_000 }).toBe(true);
    driver.send({ type: 'BUS_TRACKING_STOPPED', data: { busId: 'B3' } });
    await text(mapPage, 'No buses currently tracking').waitFor();
  }, 90_000);

  it('after the links are rotated, shows the old map link’s page the explanation and sends it nothing', async () => {
    const rotated = await admin.post('/api/bus-links/rotate');
    expect(rotated.status).toBe(200);
    await text(mapPage, BUS_LINK_MISSING.map).waitFor({ timeout: 30_000 });
    // A position sent with the new driver link reaches no page of the old links.
    const driver = await driverSocket(tokenOf(rotated.body.driverUrl));
    driver.send({
      type: 'BUS_LOCATION_UPDATE',
      data: { busId: 'B4', location: { latitude: 29.98, longitude: -81.44, timestamp: Date.now() } },
    });
    const { page: fresh } = await open(rotated.body.mapUrl);
    await marker(fresh, 'B4').waitFor();
    expect(await mapPage.getByRole('button', { name: 'Bus B4' }).count()).toBe(0);
    expect(await text(mapPage, 'Interactive Bus Map').count()).toBe(0);
    links = rotated.body;
  }, 60_000);

  it('left no errors in the pages', () => {
    expect(suite.errors).toEqual([]);
  });
});
