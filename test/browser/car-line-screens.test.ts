import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { shotsDir, viewports } from '../support/browser';
import { browserSuite, painted, switchTheme, type Theme, type Viewport } from '../support/browser-suite';
import { sessionBody } from '../support/fixtures';
import type { Client } from '../support/server';

/**
 * The car-line screens under pressure (issue 13): the work on the first
 * screen with alerts raised, on tablets and phones, in every theme; details
 * dialogs that fit; the teacher's Arrival tab; and axe's accessibility rules
 * on the login, front, back and teacher screens in light, dark and bright.
 */

const THEMES: readonly Theme[] = ['light', 'dark', 'bright'];
const portrait = { width: 768, height: 1024 };

// No page signs out or waits for a live event beside another page of its account: one sign-in per account.
const suite = browserSuite({ reuseSignIns: true });
let front: Client;
let sessionId: number;

beforeAll(async () => {
  front = await suite.client('front_demo');
  const back = await suite.client('back_demo');
  sessionId = (await front.post('/api/sessions', sessionBody())).body.id;
  // Two alerts, raised on other screens.
  for (const [client, type, location, message] of [
    [back, 'emergency', 'Back Queue', 'Emergency assistance needed at Back Queue'],
    [front, 'help', 'Gate 2', 'Help requested at Gate 2'],
  ] as const) {
    const raised = await client.post('/api/alerts', { sessionId, type, location, message });
    expect(raised.body.dismissed).toBe(false);
  }
  // Room 12's cars (101, 104, 107, 110) and two more, one batch loading, one car in overflow.
  for (const vehicleNumber of ['101', '104', '107', '110', '113', '116']) {
    expect((await front.post('/api/queue', { sessionId, vehicleNumber, vehicleType: 'car' })).status).toBe(
      201,
    );
  }
  const batch = (await back.post('/api/batches', { sessionId, vehicleType: 'car' })).body;
  for (let i = 0; i < 3; i++) await back.post(`/api/batches/${batch.id}/vehicles`);
  const entries = (await front.get(`/api/queue?sessionId=${sessionId}`)).body as any[];
  const batched = entries.find((entry) => entry.batchId !== null && entry.vehicleNumber === '107');
  await back.put(`/api/queue/${batched.id}`, { batchId: null, status: 'overflow' });
}, 120_000);

/**
 * Pages a test only looked at (`keep`), by account, path, size and touch: a later test that
 * opens the same screen takes it over instead of loading the app again, in its own theme
 * (switched in the page, as another tab of the app would).
 */
const kept = new Map<string, Page>();
/** Each page's screen, as `kept` keys it. */
const screenOf = new WeakMap<Page, string>();

/**
 * A browser signed in as `username` (or signed out), in `theme`, on `path`: the page of an
 * earlier test that only looked at that same screen (`keep`), else a new one.
 */
const open = async (
  username: string | null,
  path: string,
  viewport: Viewport,
  theme: Theme = 'light',
  touch = false,
) => {
  const key = JSON.stringify([username, path, viewport, touch]);
  const left = kept.get(key);
  if (left) {
    kept.delete(key);
    await switchTheme(left, theme);
    return left;
  }
  const { page } = await suite.open(username, path, { viewport, theme, touch, label: `${username} ${path}` });
  screenOf.set(page, key);
  return page;
};

/** Leaves `page`, which the test did not change, to a later test on the same screen (closed at the end). */
const keep = (page: Page) => {
  kept.set(screenOf.get(page) as string, page);
};

/**
 * Whether the element's box lies wholly inside the viewport (no scrolling
 * needed to see it), once `pushedBy` px are allowed for (the alert banner
 * above the page, which pushes it down while alerts are active).
 */
const inViewport = async (page: Page, target: Locator, pushedBy = 0) => {
  const box = await target.boundingBox();
  const viewport = page.viewportSize();
  if (!box || !viewport) return false;
  box.y -= pushedBy;
  return (
    box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width && box.y + box.height <= viewport.height
  );
};

/** The height of what the staff shell puts between the header and the page: the alert banner (and the sound bar). */
const aboveThePage = async (page: Page) => {
  const header = (await page.locator('header').boundingBox())!;
  const main = (await page.locator('main').boundingBox())!;
  return main.y - (header.y + header.height);
};

const frontAlerts = (page: Page) => page.getByRole('region', { name: 'Alerts: Front Queue', exact: true });
/** The school's active alerts, on the banner at the top of every staff screen. */
const alertBanner = (page: Page) => page.getByRole('region', { name: 'Active alerts', exact: true });
const EMERGENCY = 'Emergency assistance needed at Back Queue';

describe('the front queue with two active alerts', () => {
  for (const theme of THEMES) {
    for (const [name, viewport] of [
      ['tablet', viewports.tablet],
      ['portrait', portrait],
    ] as const) {
      it(`has the whole keypad and Add to Queue on the first screen (${name}, ${theme})`, async () => {
        const page = await open('front_demo', '/front-queue', viewport, theme);
        const alerts = alertBanner(page);
        await alerts.getByRole('button', { name: `Dismiss: ${EMERGENCY}` }).waitFor();
        await alerts.getByRole('button', { name: 'Dismiss: Help requested at Gate 2' }).waitFor();
        await page.getByRole('group', { name: 'Car 116', exact: true }).waitFor();
        await painted(page);

        // The banner of alerts at the top of every staff screen comes first and pushes the page
        // down by its own height (and the sound bar's, until a tap); the rest is as without alerts.
        const pushedBy = await aboveThePage(page);
        const add = page.getByRole('button', { name: 'Add to Queue', exact: true });
        expect(await inViewport(page, add, pushedBy)).toBe(true);
        expect(await inViewport(page, page.getByRole('group', { name: 'Keypad' }), pushedBy)).toBe(true);
        expect(await inViewport(page, page.getByLabel('Vehicle Number'), pushedBy)).toBe(true);
        // The banner shows both alerts in full, each with Dismiss.
        expect(await alerts.getByRole('button', { name: /^Dismiss: / }).count()).toBe(2);
        const wide = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
        expect(wide).toBeLessThanOrEqual(0);
        await page.screenshot({ path: join(shotsDir(), `front-queue-${name}-${theme}.png`) });
        // The same screens in the next theme, and the tablet's for the details dialog, Bright's type and axe below.
        keep(page);
      }, 60_000);
    }

    it(`puts the add panel first on a phone and folds the alerts to one line with the count (${theme})`, async () => {
      const page = await open('front_demo', '/front-queue', viewports.phone, theme, true);
      const toggle = page.getByRole('button', { name: /^2 alerts\b/ });
      await toggle.waitFor();
      const pushedBy = await aboveThePage(page);
      const add = page.getByRole('button', { name: 'Add to Queue', exact: true });
      expect(await inViewport(page, add, pushedBy)).toBe(true);
      expect(await inViewport(page, page.getByRole('group', { name: 'Keypad' }), pushedBy)).toBe(true);
      const addBox = (await page.getByRole('heading', { name: 'Add Vehicle to Queue' }).boundingBox())!;
      const toggleBox = (await toggle.boundingBox())!;
      expect(addBox.y).toBeLessThan(toggleBox.y);
      // One line, saying what is most urgent.
      expect(toggleBox.height).toBeLessThan(80);
      await toggle.getByText('EMERGENCY', { exact: true }).waitFor();
      await toggle.getByText('· Back Queue', { exact: true }).waitFor();
      expect(
        await frontAlerts(page)
          .getByRole('button', { name: /^Emergency/ })
          .count(),
      ).toBe(0);
      await page.screenshot({ path: join(shotsDir(), `front-queue-phone-${theme}.png`) });

      await toggle.click();
      await frontAlerts(page)
        .getByRole('button', { name: /^Emergency/ })
        .waitFor();
      const wide = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
      expect(wide).toBeLessThanOrEqual(0);
      await page.screenshot({
        path: join(shotsDir(), `front-queue-phone-${theme}-alerts.png`),
        fullPage: true,
      });
      await page.context().close();
    }, 60_000);
  }

  it('opens the card menu from its ⋮ button as well as by a long press, and wraps names on a phone', async () => {
    const page = await open('front_demo', '/front-queue', viewports.phone, 'light', true);
    const card = page.getByRole('group', { name: 'Car 101', exact: true });
    await card.waitFor();
    await page.getByRole('button', { name: 'Actions for Car 101', exact: true }).click();
    for (const item of ['Child picked up', 'Vehicle left', 'Remove from queue']) {
      await page.getByRole('menuitem', { name: item, exact: true }).waitFor();
    }
    await page.keyboard.press('Escape');
    await page.getByRole('menuitem', { name: 'Vehicle left' }).waitFor({ state: 'hidden' });
    // Nothing in a card is cut off: each text fits its box (it wraps instead).
    const clipped = await card.evaluate((root: any) =>
      [...root.querySelectorAll('p, span')]
        // Text for screen readers only is clipped on purpose (Mantine's VisuallyHidden, or a card's
        // own class with the same rules, h57kb).
        .filter(
          (element: any) =>
            !element.closest('.mantine-VisuallyHidden-root') &&
            element.ownerDocument.defaultView.getComputedStyle(element).clip !== 'rect(0px, 0px, 0px, 0px)',
        )
        .filter((element: any) => element.scrollWidth > element.clientWidth + 1)
        .map((element: any) => element.textContent),
    );
    expect(clipped).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('fits the vehicle details dialog, with Complete Pickup, on a 768 px high tablet', async () => {
    const page = await open('front_demo', '/front-queue', viewports.tablet);
    await page.getByRole('group', { name: 'Car 101', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Pickup Information' }).waitFor();
    await painted(page);
    const content = page.locator('.mantine-Modal-content');
    expect(await inViewport(page, content)).toBe(true);
    expect(
      await content.evaluate((element: any) => element.scrollHeight - element.clientHeight),
    ).toBeLessThanOrEqual(0);
    expect(await inViewport(page, dialog.getByRole('button', { name: 'Complete Pickup' }))).toBe(true);
    await page.screenshot({ path: join(shotsDir(), 'front-queue-details-tablet.png') });
    await page.context().close();
  }, 60_000);
});

describe("the teacher's Arrival/Departure tab", () => {
  it('lists the ready students with Release, shows each alert once, and opens vehicle details without Complete Pickup', async () => {
    const page = await open('teacher_demo', '/teacher', viewports.tablet);
    await expect
      .poll(() => page.getByRole('tab', { name: 'Arrival/Departure' }).getAttribute('aria-selected'))
      .toBe('true');
    const ready = page.getByRole('region', { name: 'Ready for Pickup', exact: true });
    const list = ready.getByRole('list', { name: 'Ready students' });
    const ava = list.getByRole('listitem', { name: 'Ava Martinez', exact: true });
    await ava.getByRole('button', { name: 'Release Ava Martinez' }).waitFor();
    await ready.getByText(/^Ready: [1-9]\d*$/).waitFor();
    // Each alert once on the screen: on the banner at its top (the Alert Center counts them).
    const emergencyLine = /^EMERGENCY Back Queue · /;
    await alertBanner(page).getByRole('listitem').filter({ hasText: emergencyLine }).waitFor();
    expect(await page.getByRole('listitem').filter({ hasText: emergencyLine }).count()).toBe(1);
    await painted(page);
    await page.screenshot({ path: join(shotsDir(), 'teacher-arrival-alerts-tablet.png'), fullPage: true });

    await ava.getByText('Ava Martinez', { exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Car 101' }).waitFor();
    await dialog.getByRole('heading', { name: 'Pickup Information' }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Complete Pickup' }).count()).toBe(0);
    await dialog.getByText('Click anywhere to close', { exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    await ava.getByRole('button', { name: 'Release Ava Martinez' }).click();
    await ava.getByText('Released by teacher_demo', { exact: true }).waitFor();
    await painted(page);
    await page.screenshot({ path: join(shotsDir(), 'teacher-arrival-released-tablet.png'), fullPage: true });
    await page.context().close();

    const phone = await open('teacher_demo', '/teacher', viewports.phone, 'light', true);
    const phoneReady = phone.getByRole('region', { name: 'Ready for Pickup', exact: true });
    await phoneReady.getByRole('listitem', { name: 'Ava Johnson', exact: true }).waitFor();
    // On a phone the ready students come before the classroom choice.
    const readyBox = (await phoneReady.boundingBox())!;
    const roomsBox = (await phone.getByRole('region', { name: 'Classrooms' }).boundingBox())!;
    expect(readyBox.y).toBeLessThan(roomsBox.y);
    await phone.screenshot({ path: join(shotsDir(), 'teacher-arrival-phone.png'), fullPage: true });
    await phone.context().close();
  }, 90_000);
});

describe('outdoors', () => {
  it('keeps the single sign-on button label whole on a phone', async () => {
    const page = await open(null, '/login', viewports.phone, 'light', true);
    await page.getByRole('button', { name: '← Back to login options' }).click();
    const sso = page.getByRole('button', { name: 'Continue with Single Sign-On', exact: true });
    await sso.waitFor();
    const cut = await sso.evaluate((button: any) =>
      [button, ...button.querySelectorAll('*')].some(
        (element: any) =>
          element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1,
      ),
    );
    expect(cut).toBe(false);
    expect(await inViewport(page, sso)).toBe(true);
    await page.screenshot({ path: join(shotsDir(), 'login-options-phone.png') });
    await page.context().close();
  }, 60_000);

  it('makes Bright a sunlight theme: black on white, larger and heavier type than Light', async () => {
    const style = async (theme: Theme) => {
      const page = await open('front_demo', '/front-queue', viewports.tablet, theme);
      const name = page.getByRole('group', { name: 'Car 101', exact: true }).getByText('Jordan Martinez');
      await name.waitFor();
      const found = await name.evaluate((element: any) => {
        const css = (globalThis as any).getComputedStyle(element);
        const body = (globalThis as any).getComputedStyle((globalThis as any).document.body);
        return {
          size: Number.parseFloat(css.fontSize),
          color: css.color,
          background: body.backgroundColor,
          bodyWeight: Number(body.fontWeight),
        };
      });
      keep(page);
      return found;
    };
    const light = await style('light');
    const bright = await style('bright');
    expect(bright.size).toBeGreaterThan(light.size);
    expect(bright.bodyWeight).toBeGreaterThan(light.bodyWeight);
    expect(bright.color).toBe('rgb(0, 0, 0)');
    expect(bright.background).toBe('rgb(255, 255, 255)');
  }, 60_000);
});

describe('accessibility (axe): no serious or critical violation', () => {
  const SCREENS = [
    { name: 'login', username: null, path: '/login', ready: 'Sign In to Demo' },
    { name: 'front queue', username: 'front_demo', path: '/front-queue', ready: 'Add to Queue' },
    { name: 'back queue', username: 'back_demo', path: '/back-queue', ready: 'Complete Batch' },
    { name: 'teacher', username: 'teacher_demo', path: '/teacher', ready: 'Release Ava Johnson' },
  ] as const;
  let added = 0;

  for (const screen of SCREENS) {
    for (const theme of THEMES) {
      it(`${screen.name} in ${theme}${theme === 'bright' ? ' (text at 7:1, WCAG AAA)' : ''}`, async () => {
        const page = await open(screen.username, screen.path, viewports.tablet, theme);
        await page.getByRole('button', { name: screen.ready, exact: true }).first().waitFor();
        if (screen.path === '/front-queue') {
          // With a toast on screen: a car added from the keypad is announced.
          added += 1;
          await page.getByLabel('Vehicle Number').fill(`90${added}`);
          await page.getByRole('button', { name: 'Add to Queue', exact: true }).click();
          // This car's toast (the screen is the last theme's, whose toast may still show).
          await page
            .getByRole('alert')
            .filter({ hasText: 'Vehicle added successfully:' })
            .filter({ hasText: `90${added}` })
            .waitFor();
        }
        await painted(page);
        const tags = [
          'wcag2a',
          'wcag2aa',
          'wcag21a',
          'wcag21aa',
          ...(theme === 'bright' ? ['wcag2aaa'] : []),
        ];
        const result = await new AxeBuilder({ page }).withTags(tags).analyze();
        const found = result.violations
          .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
          .map((violation) => ({
            rule: violation.id,
            nodes: violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary ?? ''}`),
          }));
        expect(found).toEqual([]);
        // The same screen in the next theme.
        keep(page);
      }, 60_000);
    }
  }
});

describe('the screens log no errors', () => {
  it('in any of the pages above', () => {
    expect(suite.errors).toEqual([]);
  });
});
