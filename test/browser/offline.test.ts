import type { Page } from 'playwright-core';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectAccessible, shotsDir } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { queueCar } from '../support/car-line';
import { sessionBody } from '../support/fixtures';
import { type Client, signedIn } from '../support/server';

/**
 * Issue 30 in the browser, with Playwright's `context.setOffline` (which, since Playwright 1.5x,
 * cuts the page's service worker off too): a front-queue tablet keeps its taps through a dead
 * spot and sends each once when the connection is back; a tablet reloaded without a connection
 * opens its last queue, marked offline; Undo after a completion brings the car back everywhere.
 *
 * The test server listens on http://127.0.0.1:<port>, a secure context for the browser, so the
 * app's service worker registers there as on the school's https site. Each context is a fresh
 * profile: the worker installs (precaching the shell) on the first visit, and controls the page
 * from then on (`clients.claim`); the tests wait for that, as a tablet at the curb has been online
 * at least once.
 */
// The app's service worker is what these tests are about.
const suite = browserSuite({ serviceWorkers: true });

/** What a page logs while it has no connection: its failed reads and live connection attempts. */
const OFFLINE_ERRORS = [/net::ERR_INTERNET_DISCONNECTED/];
let front: Client;
let admin: Client;
let sessionId: number;

beforeAll(async () => {
  front = await signedIn(suite.server.url, 'front_demo');
  admin = await signedIn(suite.server.url, 'admin_demo');
});

beforeEach(async () => {
  // A fresh session per test: an empty line.
  const active = (await front.get('/api/sessions/active')).body;
  if (active) await admin.put(`/api/sessions/${active.id}/end`);
  sessionId = (await front.post('/api/sessions', sessionBody())).body.id;
});

/** The vehicle numbers of the session's entries on the server (waiting, or completed). */
const numbersOnServer = async (status?: 'completed') =>
  ((await front.get(`/api/queue?sessionId=${sessionId}${status ? '&status=completed' : ''}`)).body as any[])
    .map((entry) => entry.vehicleNumber)
    .sort();

/** How many times the dismissal record holds `kind` for car `vehicleNumber`. */
const recorded = async (kind: string, vehicleNumber: string) => {
  const events = (await admin.get(`/api/sessions/${sessionId}/events`)).body.items as any[];
  return events.filter(
    (event) =>
      event.kind === kind && event.entries.some((entry: any) => entry.vehicleNumber === vehicleNumber),
  ).length;
};

const card = (page: Page, vehicleNumber: string) =>
  page.getByRole('group', { name: `Car ${vehicleNumber}`, exact: true });

/** The cars whose cards a queue screen shows, as their numbers, in screen order (one per card). */
type Labelled = { getAttribute(name: string): string | null };
const carsOn = (page: Page) =>
  page
    .getByRole('group', { name: /^Car \d+$/ })
    // One read of every card at once (this file is type-checked without the DOM library).
    .evaluateAll((cards) =>
      cards.map((card) => (card as unknown as Labelled).getAttribute('aria-label')?.replace('Car ', '')),
    );

/** Waits until the app's service worker controls `page` (installed: the shell is cached). */
const shellCached = (page: Page) =>
  expect
    .poll(() => page.evaluate<boolean>('navigator.serviceWorker.controller !== null'), { timeout: 30_000 })
    .toBe(true);

const addCar = async (page: Page, vehicleNumber: string) => {
  await page.getByLabel('Vehicle Number').fill(vehicleNumber);
  await page.getByRole('button', { name: 'Add to Queue' }).click();
  await expect.poll(() => page.getByLabel('Vehicle Number').inputValue(), { timeout: 10_000 }).toBe('');
};

const completePickup = async (page: Page, vehicleNumber: string) => {
  await card(page, vehicleNumber).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Complete Pickup' }).click();
};

describe('a front-queue tablet through a dead spot', () => {
  it('keeps three adds and a pickup made offline, and the back queue shows exactly those, once, within 5 s of the connection coming back', async () => {
    await queueCar(front, sessionId, '130');
    const tablet = await suite.open('front_demo', '/front-queue', { expectedErrors: OFFLINE_ERRORS });
    const back = await suite.open('back_demo', '/back-queue');
    await card(tablet.page, '130').waitFor({ timeout: 30_000 });
    await card(back.page, '130').waitFor({ timeout: 30_000 });
    await suite.connected(back.page);
    await shellCached(tablet.page);
    await tablet.page.getByText('Online · Live').waitFor({ timeout: 30_000 });

    await tablet.context.setOffline(true);
    await tablet.page.getByText('Offline — last updated just now').waitFor({ timeout: 10_000 });
    for (const number of ['131', '132', '133']) await addCar(tablet.page, number);
    await completePickup(tablet.page, '130');
    await tablet.page.getByText('Offline — 4 changes waiting').waitFor({ timeout: 10_000 });
    // Each waiting change shows on its vehicle: the adds as cards of their own, the pickup on its card.
    for (const number of ['131', '132', '133']) {
      await tablet.page.getByRole('group', { name: `Car ${number}, waiting to send` }).waitFor();
    }
    await tablet.page.getByText('Waiting to send', { exact: true }).first().waitFor();
    await tablet.page.screenshot({ path: `${shotsDir()}/offline-front-queue-waiting.png` });
    // Nothing reached the server, and the back queue still shows the line as it was.
    expect(await numbersOnServer()).toEqual(['130']);
    expect(await carsOn(back.page)).toEqual(['130']);

    await tablet.context.setOffline(false);
    const onlineAt = Date.now();
    await expect.poll(() => carsOn(back.page), { timeout: 15_000 }).toEqual(['131', '132', '133']);
    const shownAfter = Date.now() - onlineAt;
    expect(shownAfter, `the back queue showed the changes ${shownAfter} ms after`).toBeLessThan(5_000);

    // Once each: on the server, in the dismissal record, and on both screens.
    expect(await numbersOnServer()).toEqual(['131', '132', '133']);
    expect(await numbersOnServer('completed')).toEqual(['130']);
    for (const number of ['131', '132', '133']) expect(await recorded('vehicle_queued', number)).toBe(1);
    expect(await recorded('picked_up', '130')).toBe(1);
    await tablet.page.getByText(/changes? waiting/).waitFor({ state: 'detached', timeout: 15_000 });
    await expect.poll(() => carsOn(tablet.page), { timeout: 15_000 }).toEqual(['131', '132', '133']);
    expect(await carsOn(back.page)).toEqual(['131', '132', '133']);
  }, 180_000);

  it('opens its last queue when reloaded without a connection, marked offline, and catches up once back', async () => {
    for (const number of ['140', '141']) await queueCar(front, sessionId, number);
    const tablet = await suite.open('front_demo', '/front-queue', { expectedErrors: OFFLINE_ERRORS });
    await card(tablet.page, '141').waitFor({ timeout: 30_000 });
    await shellCached(tablet.page);
    // The last-known queue is kept a second after it changed.
    await expect
      .poll(
        () =>
          tablet.page.evaluate<boolean>(`new Promise((resolve) => {
            const open = indexedDB.open('curbside-outbox');
            open.onsuccess = () => {
              const get = open.result.transaction('outbox').objectStore('outbox').get('last-known');
              get.onsuccess = () => resolve(JSON.stringify(get.result ?? null).includes('"vehicleNumber":"141"'));
              get.onerror = () => resolve(false);
            };
            open.onerror = () => resolve(false);
          })`),
        { timeout: 15_000 },
      )
      .toBe(true);

    await tablet.context.setOffline(true);
    const reloaded = await tablet.page.reload();
    expect(reloaded?.fromServiceWorker(), 'the page came from the service worker').toBe(true);
    for (const number of ['140', '141']) await card(tablet.page, number).waitFor({ timeout: 30_000 });
    await tablet.page
      .getByText(/^Offline — last updated (just now|\d+ min ago)$/)
      .waitFor({ timeout: 10_000 });
    await tablet.page.screenshot({ path: `${shotsDir()}/offline-front-queue-reloaded.png` });

    // Meanwhile another tablet queues a car; this one shows it once the connection is back.
    await queueCar(front, sessionId, '142');
    await tablet.context.setOffline(false);
    await expect.poll(() => carsOn(tablet.page), { timeout: 30_000 }).toEqual(['140', '141', '142']);
    await tablet.page.getByText('Online · Live').waitFor({ timeout: 30_000 });
  }, 180_000);

  it('brings a car back on another screen too when Undo follows a completion', async () => {
    for (const number of ['150', '151']) await queueCar(front, sessionId, number);
    const tablet = await suite.open('front_demo', '/front-queue');
    const back = await suite.open('back_demo', '/back-queue');
    await card(tablet.page, '151').waitFor({ timeout: 30_000 });
    await card(back.page, '151').waitFor({ timeout: 30_000 });
    await suite.connected(back.page);

    await completePickup(tablet.page, '151');
    // Sent at once: the other screen sees the car leave without waiting on the tablet.
    await card(back.page, '151').waitFor({ state: 'detached', timeout: 20_000 });
    expect(await numbersOnServer('completed')).toContain('151');

    await tablet.page.getByRole('button', { name: 'Undo', exact: true }).click();
    await card(back.page, '151').waitFor({ timeout: 20_000 });
    await card(tablet.page, '151').waitFor({ timeout: 20_000 });
    expect(await numbersOnServer()).toEqual(['150', '151']);
    expect(await numbersOnServer('completed')).not.toContain('151');
    expect(await recorded('restored', '151')).toBe(1);
    await expect.poll(() => carsOn(back.page), { timeout: 15_000 }).toEqual(['150', '151']);
  }, 120_000);
  it('keeps an Undo made offline behind the pickup it undoes, and brings the car back once both are sent', async () => {
    await queueCar(front, sessionId, '170');
    const tablet = await suite.open('front_demo', '/front-queue', { expectedErrors: OFFLINE_ERRORS });
    await card(tablet.page, '170').waitFor({ timeout: 30_000 });
    await shellCached(tablet.page);

    await tablet.context.setOffline(true);
    await completePickup(tablet.page, '170');
    await tablet.page.getByRole('button', { name: 'Undo', exact: true }).click();
    await tablet.page.getByText('Offline — 2 changes waiting').waitFor({ timeout: 10_000 });
    expect(await tablet.page.getByText('Could not undo').count()).toBe(0);

    await tablet.context.setOffline(false);
    await expect.poll(() => recorded('restored', '170'), { timeout: 15_000 }).toBe(1);
    expect(await recorded('picked_up', '170')).toBe(1);
    expect(await numbersOnServer()).toEqual(['170']);
    await card(tablet.page, '170').waitFor({ timeout: 15_000 });
    await tablet.page.getByText(/changes? waiting/).waitFor({ state: 'detached', timeout: 15_000 });
  }, 120_000);
});

describe('the connection states and a refused change, on a 1024×768 tablet', () => {
  it('names each state in the header and shows a refusal on its vehicle, with no serious accessibility violation', async () => {
    await queueCar(front, sessionId, '160');
    const tablet = await suite.open('front_demo', '/front-queue', {
      // The refusal's 409 is logged by the browser as a failed request.
      expectedErrors: [...OFFLINE_ERRORS, { text: /status of 409/, url: /\/api\/queue$/ }],
    });
    await card(tablet.page, '160').waitFor({ timeout: 30_000 });
    await shellCached(tablet.page);
    const header = tablet.page.locator('header');
    await header.getByText('Online · Live').waitFor({ timeout: 30_000 });
    await suite.painted(tablet.page);
    await header.screenshot({ path: `${shotsDir()}/header-online-live.png` });
    await expectAccessible(tablet.page);

    await tablet.context.setOffline(true);
    await header.getByText('Offline — last updated just now').waitFor({ timeout: 10_000 });
    await suite.painted(tablet.page);
    await header.screenshot({ path: `${shotsDir()}/header-offline-last-updated.png` });

    // Car 161 added here while offline, and on another tablet meanwhile: this one's is refused.
    await addCar(tablet.page, '161');
    await header.getByText('Offline — 1 change waiting').waitFor({ timeout: 10_000 });
    await suite.painted(tablet.page);
    await header.screenshot({ path: `${shotsDir()}/header-offline-waiting.png` });
    await tablet.page.screenshot({ path: `${shotsDir()}/offline-pending-card.png` });
    await expectAccessible(tablet.page);
    await queueCar(front, sessionId, '161');

    await tablet.context.setOffline(false);
    // On the car's card (queued meanwhile by the other tablet), not in a toast.
    const refusal = tablet.page
      .getByRole('alert')
      .filter({ hasText: 'Not sent: Vehicle 161 is already in the queue' });
    await refusal.waitFor({ timeout: 20_000 });
    await card(tablet.page, '161').waitFor({ timeout: 20_000 });
    await expect
      .poll(() => tablet.page.getByRole('group', { name: /^Car 161, / }).count(), { timeout: 20_000 })
      .toBe(0);
    await header.getByText('Online · Live').waitFor({ timeout: 30_000 });
    await suite.painted(tablet.page);
    await tablet.page.screenshot({ path: `${shotsDir()}/offline-refused-card.png` });
    await expectAccessible(tablet.page);
    expect(await recorded('vehicle_queued', '161')).toBe(1);

    await tablet.page.getByRole('button', { name: 'Dismiss for Car 161' }).click();
    await refusal.waitFor({ state: 'detached' });
  }, 180_000);
});

it('logged no unexpected errors on the screens it opened', () => {
  expect(suite.errors).toEqual([]);
});
