import { join } from 'node:path';
import type { Alert } from '@curbside/domain';
import type { Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  admin,
  alertsSuite,
  bannerRow,
  contexts,
  driverAlert,
  links,
  open,
  raised,
  suite,
} from '../support/alerts';
import { expectAccessible, shotsDir, viewports } from '../support/browser';
import { connected, painted } from '../support/browser-suite';
import { sessionBody } from '../support/fixtures';

/**
 * Alerts that reach someone (issue 27), continued: the screen that raised an emergency keeps its
 * toast; the driver page; a staff tab in the background; a staff screen reading its alerts
 * again (the setup: test/support/alerts.ts).
 */
alertsSuite();

describe('the screen that raised an emergency', () => {
  it('keeps its toast until it is closed', { timeout: 120_000 }, async () => {
    const session = (await admin.post('/api/sessions', sessionBody())).body;
    try {
      const page = await open('front_demo', '/front-queue', viewports.tablet, { clock: true });
      const emergency = page
        .getByRole('region', { name: 'Alerts: Front Queue', exact: true })
        .getByRole('button', { name: /^Emergency/ });
      await emergency.scrollIntoViewIfNeeded();
      const box = await emergency.boundingBox();
      if (!box) throw new Error('no Emergency button');
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.clock.runFor(1_100);
      await page.mouse.up();

      const toast = page.getByRole('alert').filter({ hasText: 'The school admin has been notified.' });
      await toast.waitFor();
      const id = (await admin.get('/api/alerts')).body.find((a: Alert) => a.location === 'Front Queue')?.id;
      if (id) raised.push(id);
      await page.clock.fastForward(10_000);
      await page.clock.fastForward(60_000);
      await toast.waitFor();
      expect(await toast.count()).toBe(1);
    } finally {
      await admin.put(`/api/sessions/${session.id}/end`);
    }
  });
});

describe('the driver page', () => {
  it('shows the driver that the school has seen their emergency, and who is on it', {
    timeout: 120_000,
  }, async () => {
    const token = new URL(links.driverUrl).searchParams.get('t');
    const context = await suite.browser.newContext({
      viewport: viewports.phone,
      baseURL: suite.server.url,
      hasTouch: true,
      isMobile: true,
    });
    contexts.push(context);
    const driver = await context.newPage();
    driver.on('pageerror', (error) => suite.errors.push(`driver: ${error.message}`));
    await driver.clock.install();
    await driver.goto(`/bus-driver?t=${token}`);
    await driver.getByRole('textbox', { name: 'Select Bus' }).click();
    await driver.getByRole('option', { name: 'Bus 5 - Route E' }).click();
    // Held long enough for a press-and-hold button as well as a plain one.
    const emergency = driver.getByRole('button', { name: /^Emergency/ });
    const box = (await emergency.boundingBox())!;
    await driver.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await driver.mouse.down();
    await driver.clock.runFor(1_300);
    await driver.mouse.up();
    const status = driver.getByRole('status', { name: 'Your alert' });
    await status.getByText(/^Your emergency alert was sent\. Waiting for someone at the school/).waitFor();

    const alert = (await admin.get('/api/alerts')).body.find((a: Alert) => a.location === 'Bus 5') as Alert;
    raised.push(alert.id);
    expect((await admin.post(`/api/alerts/${alert.id}/acknowledge`)).status).toBe(200);
    await status.getByText('The school has seen your emergency alert', { exact: true }).waitFor();
    await status.getByText(/^Alex Admin is on it \(since /).waitFor();
    await expectAccessible(driver);
    await driver.screenshot({ path: join(shotsDir(), 'bus-driver-alert-seen-phone.png') });
  });
});

describe('a staff tab in the background', () => {
  it('flashes its title while an alert is active, and shows its own again in front', {
    timeout: 120_000,
  }, async () => {
    const page = await open('back_demo', '/back-queue', viewports.tablet, { clock: true });
    await page.getByRole('banner').waitFor();
    // The alert is raised once the page's live connection is open: its event shows it. In one CI
    // run, raised while the page may still have been connecting, the banner did not show it within
    // 30 s; 80 alerts raised 0–2 s after such a page opened (a busy machine too) all showed.
    await connected(page);
    const own = await page.title();
    await driverAlert('emergency', 'B1', 'Bus 1');
    await bannerRow(page, 'Bus 1 driver').waitFor();
    // The tab goes to the background.
    await page.evaluate(`Object.defineProperty(document, 'hidden', { configurable: true, get: () => true })`);
    // Time stops: only runFor moves it. A running clock also moves while each step waits on the
    // page, and with a second per step (a busy machine) every read fell on the same phase.
    await page.clock.pauseAt((await page.evaluate<number>('Date.now()')) + 2_000);
    // Second by second until both titles were seen (the flashing may start a tick late on a busy
    // machine), ten seconds at most.
    const titles = new Set<string>();
    for (let tick = 0; tick < 10 && titles.size < 2; tick++) {
      await page.clock.runFor(1_000);
      titles.add(await page.title());
    }
    expect([...titles].sort()).toEqual(['⚠ EMERGENCY ALERT', own].sort());
    await page.evaluate(
      `Object.defineProperty(document, 'hidden', { configurable: true, get: () => false })`,
    );
    await page.clock.runFor(1_000);
    expect(await page.title()).toBe(own);
  });
});

describe('a staff screen reading its alerts again', () => {
  it('keeps an alert raised while that read was on its way, and reads the list again', {
    timeout: 120_000,
  }, async () => {
    const page = await open('front_demo', '/front-queue', viewports.tablet, { clock: true });
    await page.getByRole('banner').waitFor();
    await connected(page);
    // The banner's next read of the school's alerts is answered as the server saw it before
    // the alert, and held until the alert's live event has shown on the page.
    const reads: Request[] = [];
    const ended = new Set<Request>();
    page.on('requestfinished', (request) => ended.add(request));
    page.on('requestfailed', (request) => ended.add(request));
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(
      (url) => url.pathname === '/api/alerts' && url.search === '',
      async (route) => {
        reads.push(route.request());
        if (reads.length > 1) return route.continue();
        const answer = await route.fetch();
        await released;
        await route.fulfill({ response: answer });
      },
    );
    // The 30 s poll (once more if a read was already on its way: the poll then makes none).
    await expect
      .poll(
        async () => {
          if (reads.length === 0) await page.clock.fastForward(30_000);
          return reads.length;
        },
        { timeout: 30_000, interval: 2_000 },
      )
      .toBeGreaterThan(0);
    await driverAlert('help', 'B2', 'Bus 2');
    await bannerRow(page, 'Bus 2 driver').waitFor();
    release();
    // The held answer no longer counts: the list is read again, and the alert stays.
    await expect
      .poll(() => reads.length >= 2 && reads.slice(0, 2).every((read) => ended.has(read)))
      .toBe(true);
    await painted(page);
    await painted(page);
    expect(await bannerRow(page, 'Bus 2 driver').count()).toBe(1);
  });
});
