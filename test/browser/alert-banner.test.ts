import { join } from 'node:path';
import type { Alert, BusLinks } from '@curbside/domain';
import type { Locator, Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, shotsDir, viewports } from '../support/browser';
import { browserSuite, connected, onFirstScreen, painted } from '../support/browser-suite';
import { sendDriverAlert } from '../support/driver-page';
import { sessionBody } from '../support/fixtures';
import type { Client } from '../support/server';

/**
 * The alert banner at the top of every staff screen, compact (issue 50, item
 * 4): one line per alert (what, where, who, how long ago, who is on it, "I'm
 * on it" and Dismiss), the most severe first, two shown and "+N more" that
 * opens the rest, so that the front queue's keypad and Add to Queue stay on
 * the first screen of a 1024×768 tablet with five alerts (two raised before
 * the session started: a driver's, another screen's) and of a 390×844 phone
 * with two; and alerts without a session (item 9): the Help / Emergency pair
 * shows on the screens with no session running, and dismissing an emergency
 * asks first.
 */
const suite = browserSuite({ reuseSignIns: true, closeAfterEach: true });
const { errors } = suite;
let admin: Client;
let links: BusLinks;

beforeAll(async () => {
  admin = await suite.client('admin_demo');
  links = (await admin.get('/api/bus-links')).body;
});

afterEach(async () => {
  for (const alert of (await admin.get('/api/alerts')).body as Alert[]) {
    await admin.put(`/api/alerts/${alert.id}/dismiss`);
  }
  const running = (await admin.get('/api/sessions/active')).body;
  if (running) await admin.put(`/api/sessions/${running.id}/end`);
  expect(errors.splice(0)).toEqual([]);
});

const open = async (username: string, path: string, viewport: { width: number; height: number }) => {
  const { page } = await suite.open(username, path, { viewport, touch: viewport === viewports.phone });
  return page;
};

const banner = (page: Page) => page.getByRole('region', { name: 'Active alerts', exact: true });
const rows = (page: Page) => banner(page).getByRole('listitem');

/**
 * A tap on the page (its heading, which does nothing) lets it sound alerts: the bar asking for
 * that tap, stuck over the screen's end, goes. (Playwright's own queries count as a tap too.)
 */
const turnOnSound = async (page: Page) => {
  const heading = page.getByRole('heading', { name: 'Add Vehicle to Queue' });
  if (page.viewportSize()?.width === viewports.phone.width) await heading.tap();
  else await heading.click();
  await page.getByRole('button', { name: 'Tap to turn on alert sounds' }).waitFor({ state: 'detached' });
};

const staffAlert = (type: 'help' | 'emergency', location: string, sessionId: number | null) =>
  admin.post('/api/alerts', { sessionId, type, location }).then((answer) => {
    expect(answer.status).toBe(200);
    return answer.body.alert as Alert;
  });

const driverAlert = (type: 'help' | 'emergency', busId: string, busName: string) =>
  sendDriverAlert(suite.server.url, links.driverUrl, type, busId, busName);

/** Presses and holds `target` until `until` shows (a hold button acts after 0.8–1 s). */
const hold = async (page: Page, target: Locator, until: Locator) => {
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  if (!box) throw new Error('nothing to hold');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await until.waitFor({ timeout: 10_000 });
  await page.mouse.up();
};

describe('the compact alert banner', () => {
  it('keeps the keypad and Add to Queue on a tablet’s first screen with five alerts, most severe first', {
    timeout: 120_000,
  }, async () => {
    // Two raised while no session ran (a driver's help, another screen's emergency), then three in the session.
    await driverAlert('help', 'B2', 'Bus 2');
    await staffAlert('emergency', 'Gym', null);
    const sessionId = (await admin.post('/api/sessions', sessionBody())).body.id as number;
    await staffAlert('help', 'Gate 2', sessionId);
    await staffAlert('emergency', 'Back Queue', sessionId);
    await staffAlert('help', 'Room 12', sessionId);

    const page = await open('front_demo', '/front-queue', viewports.tablet);
    await turnOnSound(page);
    const more = banner(page).getByRole('button', { name: '+3 more' });
    await more.waitFor();
    await expect.poll(() => rows(page).count()).toBe(2);
    // The most severe first: the two emergencies, the newest first.
    expect(await rows(page).allTextContents()).toEqual([
      expect.stringMatching(/^EMERGENCY Back Queue · by Alex Admin · just now · Nobody on it yet/),
      expect.stringMatching(/^EMERGENCY Gym · by Alex Admin · just now · Nobody on it yet/),
    ]);
    // One line each, with both buttons.
    for (const row of await rows(page).all()) {
      expect((await row.boundingBox())?.height).toBeLessThanOrEqual(48);
      expect(await row.getByRole('button').count()).toBe(2);
    }
    await page.getByRole('heading', { name: 'Add Vehicle to Queue' }).waitFor();
    await painted(page);
    expect(await onFirstScreen(page, page.getByRole('button', { name: 'Add to Queue', exact: true }))).toBe(
      true,
    );
    expect(await onFirstScreen(page, page.getByRole('group', { name: 'Keypad' }))).toBe(true);
    expect(await onFirstScreen(page, page.getByLabel('Vehicle Number'))).toBe(true);
    await page.screenshot({ path: join(shotsDir(), 'alert-banner-five-tablet.png') });

    // "+3 more" opens the rest (the help requests, the newest first), and closes them again.
    await more.click();
    await expect.poll(() => rows(page).count()).toBe(5);
    expect((await rows(page).allTextContents()).slice(2).map((text) => text.split(' · ')[0])).toEqual([
      'HELP Room 12',
      'HELP Gate 2',
      'HELP Bus 2',
    ]);
    await rows(page).filter({ hasText: 'by Bus 2 driver' }).waitFor();
    await painted(page);
    await expectAccessible(page);
    await page.screenshot({ path: join(shotsDir(), 'alert-banner-five-open-tablet.png') });
    await banner(page).getByRole('button', { name: 'Show fewer' }).click();
    await expect.poll(() => rows(page).count()).toBe(2);
  });

  it('keeps the keypad and Add to Queue on a phone’s first screen with two alerts', {
    timeout: 120_000,
  }, async () => {
    const sessionId = (await admin.post('/api/sessions', sessionBody())).body.id as number;
    await staffAlert('emergency', 'Back Queue', sessionId);
    await driverAlert('help', 'B3', 'Bus 3');
    const page = await open('front_demo', '/front-queue', viewports.phone);
    await turnOnSound(page);
    await expect.poll(() => rows(page).count()).toBe(2);
    expect(await banner(page).getByRole('button', { name: /more$/ }).count()).toBe(0);
    for (const row of await rows(page).all()) {
      expect((await row.boundingBox())?.height).toBeLessThanOrEqual(48);
    }
    await page.getByRole('heading', { name: 'Add Vehicle to Queue' }).waitFor();
    await painted(page);
    expect(await onFirstScreen(page, page.getByRole('button', { name: 'Add to Queue', exact: true }))).toBe(
      true,
    );
    expect(await onFirstScreen(page, page.getByRole('group', { name: 'Keypad' }))).toBe(true);
    const wide = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(wide).toBeLessThanOrEqual(0);
    await expectAccessible(page);
    await page.screenshot({ path: join(shotsDir(), 'alert-banner-two-phone.png') });
  });
});

describe('dismissing an emergency', () => {
  it('asks first; help goes at once', { timeout: 120_000 }, async () => {
    const emergency = await staffAlert('emergency', 'Gym', null);
    const help = await staffAlert('help', 'Gate 2', null);
    const page = await open('back_demo', '/back-queue', viewports.tablet);
    const dismissEmergency = banner(page).getByRole('button', { name: `Dismiss: ${emergency.message}` });
    await dismissEmergency.click();
    const dialog = page.getByRole('dialog', { name: 'Dismiss this emergency?' });
    await dialog.getByText(emergency.message, { exact: true }).waitFor();
    await painted(page);
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(((await admin.get('/api/alerts')).body as Alert[]).map((alert) => alert.id)).toContain(
      emergency.id,
    );

    await dismissEmergency.click();
    await dialog.getByRole('button', { name: 'Dismiss emergency' }).click();
    await dismissEmergency.waitFor({ state: 'detached' });
    expect(((await admin.get('/api/alerts')).body as Alert[]).map((alert) => alert.id)).not.toContain(
      emergency.id,
    );

    await banner(page)
      .getByRole('button', { name: `Dismiss: ${help.message}` })
      .click();
    await banner(page).waitFor({ state: 'detached' });
    expect(await page.getByRole('dialog').count()).toBe(0);
  });
});

describe('the question before an emergency is dismissed, its code fetched after the paint (h57b)', () => {
  it('says so when its code cannot be fetched, keeps the emergency, and asks once it can', {
    timeout: 120_000,
  }, async () => {
    const emergency = await staffAlert('emergency', 'Library', null);
    const { page } = await suite.open('back_demo', '/back-queue', {
      viewport: viewports.tablet,
      // Never idle: the question's code is not fetched ahead, only when first asked.
      initScripts: ['window.requestIdleCallback = () => 0;'],
      expectedErrors: [/Failed to fetch dynamically imported module|ERR_FAILED/],
    });
    const questionCode = (url: URL) => /^\/assets\/dismiss-emergency-modal-[\w-]+\.js$/.test(url.pathname);
    await page.route(questionCode, (route) => route.abort('failed'));
    const dismissEmergency = banner(page).getByRole('button', { name: `Dismiss: ${emergency.message}` });
    await dismissEmergency.click();
    const notLoaded = page
      .getByRole('alert')
      .filter({ hasText: 'The question before dismissing did not load' });
    await notLoaded.waitFor({ timeout: 15_000 });
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(((await admin.get('/api/alerts')).body as Alert[]).map((alert) => alert.id)).toContain(
      emergency.id,
    );
    // The connection is back: Dismiss asks, the message gone, "Keep it" focused.
    await page.unroute(questionCode);
    await dismissEmergency.click();
    const dialog = page.getByRole('dialog', { name: 'Dismiss this emergency?' });
    await dialog.getByText(emergency.message, { exact: true }).waitFor({ timeout: 15_000 });
    expect(await notLoaded.count()).toBe(0);
    const keep = dialog.getByRole('button', { name: 'Keep it' });
    await expect
      .poll(() => keep.evaluate((element: any) => element === element.ownerDocument.activeElement), {
        timeout: 10_000,
      })
      .toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(((await admin.get('/api/alerts')).body as Alert[]).map((alert) => alert.id)).toContain(
      emergency.id,
    );
  });
});

describe('with no session running', () => {
  for (const [username, path, location] of [
    ['front_demo', '/front-queue', 'Front Queue'],
    ['back_demo', '/back-queue', 'Back Queue'],
  ] as const) {
    it(`the ${location} screen raises an alert (an emergency does not wait for a dismissal)`, {
      timeout: 120_000,
    }, async () => {
      const page = await open(username, path, viewports.tablet);
      await page.getByRole('heading', { name: 'No Active Session' }).waitFor();
      await connected(page);
      const panel = page.getByRole('region', { name: `Alerts: ${location}`, exact: true });
      await hold(
        page,
        panel.getByRole('button', { name: /^Emergency/ }),
        panel.getByRole('button', { name: /^EMERGENCY ACTIVE/ }),
      );
      await banner(page)
        .getByRole('listitem')
        .filter({ hasText: `EMERGENCY ${location} · ` })
        .waitFor();
      const raised = ((await admin.get('/api/alerts')).body as Alert[]).find(
        (alert) => alert.location === location,
      );
      expect(raised).toMatchObject({ type: 'emergency', sessionId: null, status: 'active' });
      await painted(page);
      await expectAccessible(page);
      await page.screenshot({ path: join(shotsDir(), `alert-no-session-${username}.png`) });

      // Held again: asks first, then dismisses it.
      await hold(
        page,
        panel.getByRole('button', { name: /^EMERGENCY ACTIVE/ }),
        page.getByRole('dialog', { name: 'Dismiss this emergency?' }),
      );
      await page.getByRole('button', { name: 'Dismiss emergency' }).click();
      await panel.getByRole('button', { name: /^Emergency/ }).waitFor();
      expect((await admin.get('/api/alerts')).body).toEqual([]);
    });
  }

  it('the teacher screen’s Alert Center raises help', { timeout: 120_000 }, async () => {
    const page = await open('teacher_demo', '/teacher', viewports.tablet);
    await page.getByRole('tab', { name: 'Attendance', selected: true }).waitFor();
    const center = page.getByRole('region', { name: 'Alert Center', exact: true });
    await connected(page);
    await hold(
      page,
      center.getByRole('button', { name: /^Help/ }),
      center.getByRole('button', { name: /^Help Requested/ }),
    );
    const raised = ((await admin.get('/api/alerts')).body as Alert[]).find((alert) => alert.type === 'help');
    expect(raised?.sessionId).toBeNull();
    await banner(page)
      .getByRole('listitem')
      .filter({ hasText: `HELP ${raised?.location} · ` })
      .waitFor();
  });
});
