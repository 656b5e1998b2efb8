import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shotsDir } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { openDriverPage } from '../support/driver-page';
import { signedIn } from '../support/server';

/**
 * The bus driver page through a GPS outage (issue 32): a "position
 * unavailable" error (a bridge, a tunnel) keeps the watch, says "GPS signal
 * lost — still trying" and resumes on the next fix; only Stop Tracking or a
 * refused permission ends tracking. The phone's geolocation is scripted.
 */
const suite = browserSuite();

const LOST = 'GPS signal lost — still trying';

const driverPage = async () => {
  const admin = await signedIn(suite.server.url, 'admin_demo');
  const { driverUrl } = (await admin.get('/api/bus-links')).body as { driverUrl: string };
  const page = await openDriverPage(suite, driverUrl);
  await page.getByRole('textbox', { name: 'Select Bus' }).click();
  await page.getByRole('option', { name: 'Bus 2 - Route B' }).click();
  await page.getByRole('button', { name: 'Start Tracking' }).click();
  await page.getByText('Latitude: 29.981100').waitFor({ timeout: 15_000 });
  return page;
};

const watching = (page: Awaited<ReturnType<typeof driverPage>>) =>
  page.evaluate(() => (globalThis as unknown as { watching: () => number }).watching());

describe('the bus driver page through a GPS outage', () => {
  it('keeps watching through “position unavailable”, says so, and resumes on the next fix', async () => {
    const page = await driverPage();
    const lost = page.getByText(LOST, { exact: true });
    expect(await lost.count()).toBe(0);

    await page.evaluate(() => (globalThis as unknown as { failWith: (code: number) => void }).failWith(2));
    await lost.waitFor({ timeout: 10_000 });
    expect(await page.getByRole('button', { name: 'Stop Tracking' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Start Tracking' }).count()).toBe(0);
    expect(await watching(page)).toBe(1);
    await page.screenshot({ path: join(shotsDir(), 'bus-driver-gps-lost.png'), fullPage: true });

    // Out from under the bridge: the next fix clears the message and is shown (and sent) as before.
    await page.evaluate(() =>
      (globalThis as unknown as { moveTo: (lat: number, lng: number) => void }).moveTo(29.9822, -81.4466),
    );
    await page.getByText('Latitude: 29.982200').waitFor({ timeout: 10_000 });
    await expect.poll(() => lost.count(), { timeout: 10_000 }).toBe(0);
    expect(await watching(page)).toBe(1);

    // A timeout (standing still at a light) is no outage at all.
    await page.evaluate(() => (globalThis as unknown as { failWith: (code: number) => void }).failWith(3));
    expect(await page.getByRole('button', { name: 'Stop Tracking' }).count()).toBe(1);
    expect(await lost.count()).toBe(0);

    // Stop ends it.
    await page.getByRole('button', { name: 'Stop Tracking' }).click();
    await page.getByRole('button', { name: 'Start Tracking' }).waitFor({ timeout: 10_000 });
    expect(await watching(page)).toBe(0);
  });

  it('stops when the permission is refused, and says why', async () => {
    const page = await driverPage();
    await page.evaluate(() => (globalThis as unknown as { failWith: (code: number) => void }).failWith(1));
    await page.getByRole('button', { name: 'Start Tracking' }).waitFor({ timeout: 10_000 });
    await page.getByText('Location error: User denied Geolocation').waitFor({ timeout: 10_000 });
    expect(await watching(page)).toBe(0);
    expect(await page.getByText(LOST, { exact: true }).count()).toBe(0);
  });

  it('logged no errors', () => {
    expect(suite.errors).toEqual([]);
  });
});
