import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Route } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, viewports, webDist } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { scriptedGeolocation } from '../support/driver-page';

/**
 * Issue 57: the bus driver page's first paint waits for none of Mantine's Select (its floating
 * list's chunks and stylesheets, a third of the page's bytes after the entry). Until they come
 * the bus field is drawn as the closed Select draws it; a tap or a key on it then is not lost:
 * the list opens once its code has come, and a bus is picked from it as before.
 */
const suite = browserSuite({ closeAfterEach: true });
let driverPath: string;

/** The build's chunks holding the Select's modules (its list, its popover), from its record of them. */
const selectChunks = () => {
  const { chunks } = JSON.parse(readFileSync(join(webDist, '..', '.build', 'chunks.json'), 'utf8')) as {
    chunks: Array<{ file: string; modules: string[] }>;
  };
  const files = chunks
    .filter((chunk) =>
      chunk.modules.some((module) =>
        /@mantine\/core\/esm\/components\/(Select\/Select|Popover\/Popover)\.mjs$/.test(module),
      ),
    )
    .map((chunk) => chunk.file);
  expect(files.length, 'the build names the Select’s chunks').toBeGreaterThan(0);
  return files;
};

beforeAll(async () => {
  const admin = await suite.client('admin_demo');
  const { driverUrl } = (await admin.get('/api/bus-links')).body as { driverUrl: string };
  const url = new URL(driverUrl);
  driverPath = `${url.pathname}${url.search}`;
});

/**
 * The driver page on a touch phone whose browser is never idle (the Select is not fetched ahead
 * of the driver), with the Select's chunks held until `release()`; `asked`: those asked for.
 */
const openHeld = async () => {
  const context = await suite.newContext({
    viewport: viewports.phone,
    touch: true,
    initScripts: [scriptedGeolocation, 'window.requestIdleCallback = () => 0;'],
  });
  const held = new Set(selectChunks());
  const asked: string[] = [];
  const waiting: Route[] = [];
  let released = false;
  await context.route('**/assets/**', (route) => {
    const file = new URL(route.request().url()).pathname.slice(1);
    if (!held.has(file)) return route.continue();
    asked.push(file);
    if (released) return route.continue();
    waiting.push(route);
  });
  const page = await context.newPage();
  suite.watch(page, 'driver', true, [/WebSocket/]);
  await page.goto(driverPath);
  const release = async () => {
    released = true;
    for (const route of waiting.splice(0)) await route.continue();
  };
  return { page, asked, release };
};

const field = (page: Page) => page.getByRole('textbox', { name: 'Select Bus' });

describe('the driver page’s bus field before the Select has loaded', () => {
  it('is drawn with the page, asks for no Select chunk before a tap, and the tap opens the list once it comes', {
    timeout: 90_000,
  }, async () => {
    const { page, asked, release } = await openHeld();
    await page.getByRole('button', { name: 'Start Tracking' }).waitFor({ timeout: 30_000 });
    await page.getByText('Connected', { exact: true }).waitFor({ timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    await field(page).waitFor();
    expect(await field(page).getAttribute('placeholder')).toBe('Choose your bus');
    expect(await field(page).getAttribute('aria-haspopup')).toBe('listbox');
    expect(asked).toEqual([]);
    await expectAccessible(page);

    // The tap comes before the list's code: it is asked for at once, and the tap is kept.
    await field(page).tap();
    await expect.poll(() => asked.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await page.getByRole('option').count()).toBe(0);
    await release();
    await page.getByRole('option', { name: 'Bus 2 - Route B' }).tap({ timeout: 30_000 });
    await expect.poll(() => field(page).inputValue()).toBe('Bus 2 - Route B');
    await page.getByRole('button', { name: 'Start Tracking' }).tap();
    await page.getByText('Latitude: 29.981100').waitFor({ timeout: 15_000 });
    expect(await field(page).isDisabled()).toBe(true);
  });

  it('keeps the focus and a key pressed before the Select came: the list opens and a bus is picked by keyboard', {
    timeout: 90_000,
  }, async () => {
    const { page, asked, release } = await openHeld();
    await page.getByRole('button', { name: 'Start Tracking' }).waitFor({ timeout: 30_000 });
    await field(page).focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => asked.length, { timeout: 10_000 }).toBeGreaterThan(0);
    await release();
    await page.getByRole('listbox').waitFor({ timeout: 30_000 });
    // The focus went from the look-alike to the Select's field.
    await expect.poll(() => page.locator('input:focus').getAttribute('placeholder')).toBe('Choose your bus');
    // As on the Select itself: the first ArrowDown opened the list, the next one marks its first bus.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => field(page).inputValue()).toBe('Bus 1 - Route A');
    expect(await page.getByRole('listbox').count()).toBe(0);
  });

  it('logged no errors', () => {
    expect(suite.errors).toEqual([]);
  });
});
