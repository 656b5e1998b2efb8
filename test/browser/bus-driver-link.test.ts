import { join } from 'node:path';
import { type Alert, DRIVER_LINK_REPLACED, SCHOOL_PHONE_MESSAGE } from '@curbside/domain';
import type { Locator, Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, shotsDir, viewports } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { openDriverPage } from '../support/driver-page';
import { demoSchoolSettings } from '../support/fixtures';
import type { Client } from '../support/server';

/**
 * The bus driver's way out (issue 50, items 3 and 9), on a phone: Help works
 * before a bus is chosen; the page says who closed the alert once the school
 * dismisses it; whenever an alert cannot be sent the school's phone (a school
 * setting, set on the School Settings screen) is a tap-to-call link; and a
 * driver link the office replaced says so at once and stops tracking.
 */
const suite = browserSuite({ reuseSignIns: true, closeAfterEach: true });
const { errors } = suite;
let admin: Client;

const PHONE = '(555) 010-2000';
const SETTINGS = demoSchoolSettings;

beforeAll(async () => {
  admin = await suite.client('admin_demo');
});

afterEach(async () => {
  for (const alert of (await admin.get('/api/alerts')).body as Alert[]) {
    await admin.put(`/api/alerts/${alert.id}/dismiss`);
  }
  expect(errors.splice(0)).toEqual([]);
});

const setPhone = async (phone: string | null) =>
  expect((await admin.put('/api/schools/1/settings', { ...SETTINGS, phone })).status).toBe(200);

/** The driver page from the school's current driver link, on a phone with a scripted GPS. */
const openDriver = async (expected: RegExp[] = []) => {
  const { driverUrl } = (await admin.get('/api/bus-links')).body as { driverUrl: string };
  return { page: await openDriverPage(suite, driverUrl, expected), driverUrl };
};

/** Presses and holds `target` (a finger on a touch screen) until `until` shows. */
const hold = async (page: Page, target: Locator, until: Locator) => {
  const box = await target.boundingBox();
  if (!box) throw new Error('nothing to hold');
  const cdp = await page.context().newCDPSession(page);
  const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
  await until.waitFor({ timeout: 10_000 });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
};

const yourAlert = (page: Page) => page.getByRole('status', { name: 'Your alert' });

describe('the driver page’s alerts', () => {
  it('sends Help before a bus is chosen, and says who closed it once the school dismisses it', {
    timeout: 120_000,
  }, async () => {
    const { page } = await openDriver();
    const sent = yourAlert(page).getByText(/^Your help request was sent\./);
    await hold(page, page.getByRole('button', { name: /^Help/ }), sent);
    const alert = ((await admin.get('/api/alerts')).body as Alert[]).find((each) => each.type === 'help');
    expect(alert).toMatchObject({ location: 'Bus not chosen', status: 'active' });

    expect((await admin.post(`/api/alerts/${alert?.id}/acknowledge`)).status).toBe(200);
    await yourAlert(page)
      .getByText(/^Alex Admin is on it/)
      .waitFor();
    expect((await admin.put(`/api/alerts/${alert?.id}/dismiss`)).status).toBe(200);
    await yourAlert(page)
      .getByText(/^Closed by Alex Admin at \d{1,2}:\d{2}/)
      .waitFor();
    expect(
      await yourAlert(page)
        .getByText(/is on it/)
        .count(),
    ).toBe(0);
    await expectAccessible(page);
    await page.screenshot({ path: join(shotsDir(), 'bus-driver-closed-by-phone.png') });
  });

  it('offers the school’s phone to call when an alert cannot be sent', { timeout: 120_000 }, async () => {
    await setPhone(PHONE);
    const { page } = await openDriver([/ERR_INTERNET_DISCONNECTED/]);
    // The page has read the school's phone and kept it on the device (offline, it still has it);
    // then the network drops every alert it sends.
    await expect
      .poll(() => page.evaluate(() => (globalThis as any).localStorage.getItem('curbside-school-phone')))
      .toContain(PHONE);
    await page.route('**/api/alerts', (route) => route.abort('internetdisconnected'));
    const notSent = page.getByRole('alert').filter({ hasText: 'Your emergency alert was not sent' });
    await hold(page, page.getByRole('button', { name: /^Emergency/ }), notSent);
    const call = notSent.getByRole('link', { name: `Call the school: ${PHONE}` });
    expect(await call.getAttribute('href')).toBe('tel:5550102000');
    await expectAccessible(page);
    await page.screenshot({ path: join(shotsDir(), 'bus-driver-not-sent-phone.png') });
  });
});

describe('a driver link the office replaced', () => {
  it('says so at once, stops tracking and offers the school’s phone', { timeout: 120_000 }, async () => {
    await setPhone(PHONE);
    const { page, driverUrl } = await openDriver([/status of 401/]);
    await page.getByRole('textbox', { name: 'Select Bus' }).click();
    await page.getByRole('option', { name: 'Bus 2 - Route B' }).click();
    await page.getByRole('button', { name: 'Start Tracking' }).click();
    await page.getByText('Latitude: 29.981100').waitFor({ timeout: 15_000 });

    expect((await admin.post('/api/bus-links/rotate')).status).toBe(200);
    const replaced = page.getByRole('alert').filter({ hasText: DRIVER_LINK_REPLACED });
    await replaced.waitFor({ timeout: 10_000 });
    expect(await page.getByRole('button', { name: 'Stop Tracking' }).count()).toBe(0);
    await expect
      .poll(() => page.evaluate(() => (globalThis as unknown as { watching: () => number }).watching()))
      .toBe(0);
    const call = page.getByRole('link', { name: `Call the school: ${PHONE}` });
    expect(await call.getAttribute('href')).toBe('tel:5550102000');
    await expectAccessible(page);
    await page.screenshot({ path: join(shotsDir(), 'bus-driver-link-replaced-phone.png') });

    // Opened again from the old link (a bookmark), it says the same at once.
    await page.goto(driverUrl);
    await replaced.waitFor();
    await page.getByRole('link', { name: `Call the school: ${PHONE}` }).waitFor();
  });
});

describe('the School Settings screen', () => {
  it('takes the school’s phone, names a wrong one, and keeps it', { timeout: 120_000 }, async () => {
    await setPhone(null);
    const { page } = await suite.open('admin_demo', '/school-settings', {
      viewport: viewports.tablet,
      expectedErrors: [/status of 400/],
    });
    const field = page.getByRole('textbox', { name: 'School phone' });
    await field.waitFor();
    await field.fill('ask Jane');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await page.getByText(SCHOOL_PHONE_MESSAGE, { exact: true }).waitFor();
    await field.fill(PHONE);
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await page.getByText('School settings saved.', { exact: true }).waitFor();
    expect((await admin.get('/api/schools/1/settings')).body.phone).toBe(PHONE);
    await page.reload();
    await expect.poll(() => page.getByRole('textbox', { name: 'School phone' }).inputValue()).toBe(PHONE);
    await expectAccessible(page);
    await page.screenshot({ path: join(shotsDir(), 'school-settings-phone.png'), fullPage: true });
  });
});
