import type { BusLinks } from '@curbside/domain';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterEach, beforeAll, expect } from 'vitest';
import { viewports } from './browser';
import { browserSuite } from './browser-suite';
import { sendDriverAlert } from './driver-page';
import type { Client } from './server';

/**
 * The shared setup of the alerts browser tests (issue 27): one browser suite per file, one
 * sign-in per account for the file (the admin client shares admin_demo's): no page signs out,
 * and each test's pages close when it ends, so no page waits for an alert beside another page
 * of its account. Pages record the tones they start (`sounded`). The bindings are live: a test
 * file calls `alertsSuite()` once at its top.
 */
export let suite: ReturnType<typeof browserSuite>;
export let admin: Client;
export let links: BusLinks;
/** The contexts a test opened (closed when it ends). */
export const contexts: BrowserContext[] = [];
/** The alerts a test raised (dismissed when it ends). */
export const raised: number[] = [];

/** Records every tone the page starts, and whether its audio context was running then. */
export const RECORD_TONES = `(() => {
  window.tones = [];
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...args) {
    window.tones.push({ frequency: this.frequency.value, state: this.context.state });
    return start.apply(this, args);
  };
})();`;

/** The browser suite of an alerts file, with the school admin's client and the bus links. */
export const alertsSuite = () => {
  suite = browserSuite({ reuseSignIns: true });
  beforeAll(async () => {
    admin = await suite.client('admin_demo');
    links = (await admin.get('/api/bus-links')).body;
  }, 120_000);

  afterEach(async () => {
    for (const id of raised.splice(0)) await admin.put(`/api/alerts/${id}/dismiss`);
    while (contexts.length > 0) await contexts.pop()?.close();
    expect(suite.errors.splice(0)).toEqual([]);
  });
};

export const open = async (
  username: string,
  path: string,
  viewport: { width: number; height: number },
  options: { clock?: boolean } = {},
) => {
  const touch = viewport === viewports.phone;
  const { page, context } = await suite.open(username, path, {
    viewport,
    touch,
    initScripts: [RECORD_TONES],
    clock: Boolean(options.clock),
  });
  contexts.push(context);
  return page;
};

/**
 * Waits until the page shows `text`, read without a user gesture: Playwright's
 * own queries count as one, and would let the page make sound without a tap.
 */
export const waitForTextUntapped = async (page: Page, text: string) => {
  const cdp = await page.context().newCDPSession(page);
  try {
    await expect
      .poll(
        async () =>
          (
            await cdp.send('Runtime.evaluate', {
              expression: 'document.body ? document.body.innerText : ""',
              returnByValue: true,
            })
          ).result.value as string,
        { timeout: 30_000, interval: 200 },
      )
      .toContain(text);
  } finally {
    await cdp.detach();
  }
};

/** A page just opened may not make sound: it says so, and a tap on the bar turns sound on. */
export const turnOnSound = async (page: Page) => {
  await waitForTextUntapped(page, SOUND_BAR);
  await tap(page, soundBar(page));
  await soundBar(page).waitFor({ state: 'detached' });
};

/** A tap (or a click on a tablet without touch) on an element. */
export const tap = async (page: Page, target: Locator) => {
  if (page.viewportSize()?.width === viewports.phone.width) await target.tap();
  else await target.click();
};

export const SOUND_BAR = 'Tap to turn on alert sounds';
export const soundBar = (page: Page) => page.getByRole('button', { name: SOUND_BAR });
export const banner = (page: Page) => page.getByRole('region', { name: 'Active alerts', exact: true });
/** An alert on the banner, found by who raised it. */
export const bannerRow = (page: Page, raisedBy: string) =>
  banner(page)
    .getByRole('listitem')
    .filter({ hasText: ` · by ${raisedBy} · ` });
/** The frequencies this page has sounded (tones started while its audio ran). */
export const sounded = async (page: Page) =>
  (await page.evaluate<Array<{ frequency: number; state: string }>>('window.tones'))
    .filter((tone) => tone.state === 'running')
    .map((tone) => tone.frequency);
export const EMERGENCY_TONES = [880, 880, 880];

/** A driver's alert sent with the school's driver link, as the driver page sends it (dismissed after the test). */
export const driverAlert = async (type: 'help' | 'emergency', busId: string, busName: string) => {
  const alert = await sendDriverAlert(suite.server.url, links.driverUrl, type, busId, busName);
  raised.push(alert.id);
  return alert;
};
