import type { Locator, Page } from 'playwright-core';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { expectAccessible, viewports } from '../support/browser';
import { browserSuite, connected } from '../support/browser-suite';
import { sessionBody } from '../support/fixtures';
import type { Client } from '../support/server';

/**
 * The front queue's keypad as first drawn (issue 57, h57v): its Car / Bus choice drawn without
 * reading the page's layout (Mantine's SegmentedControl measured itself in the keypad's first
 * commit, before the paint: a layout of the whole page forced inside that task), and still a radio
 * group that a tap, a click and the arrow keys work, its chosen segment highlighted, its choice
 * the type that is queued; no closed dialog drawn with it (each set state inside that commit).
 */
const suite = browserSuite({ reuseSignIns: true, closeAfterEach: true });
const { errors } = suite;
let front: Client;
let sessionId: number;

beforeAll(async () => {
  front = await suite.client('front_demo');
  sessionId = (await front.post('/api/sessions', sessionBody())).body.id;
});

afterEach(() => {
  expect(errors.splice(0)).toEqual([]);
});

/**
 * Keeps each read of the layout made on the Car / Bus control or inside it (a box, an offset
 * size, a computed style: what Mantine's floating indicator reads), with its time, and the
 * page's largest-paint times.
 */
const CONTROL_MEASURED = `(() => {
  window.__curbsideControlRead = [];
  window.__curbsidePaints = [];
  const inControl = (node) =>
    node instanceof Element && node.closest('[role="radiogroup"][aria-label="Vehicle type"]') !== null;
  const kept = (what) => window.__curbsideControlRead.push([what, Math.round(performance.now())]);
  for (const name of ['getBoundingClientRect', 'getClientRects']) {
    const read = Element.prototype[name];
    Element.prototype[name] = function (...args) {
      if (inControl(this)) kept(name);
      return read.apply(this, args);
    };
  }
  for (const name of ['offsetWidth', 'offsetHeight', 'offsetTop', 'offsetLeft', 'clientWidth', 'clientHeight']) {
    const owner = name.startsWith('offset') ? HTMLElement.prototype : Element.prototype;
    const { get } = Object.getOwnPropertyDescriptor(owner, name);
    Object.defineProperty(owner, name, {
      configurable: true,
      get() {
        if (inControl(this)) kept(name);
        return get.call(this);
      },
    });
  }
  const style = window.getComputedStyle;
  window.getComputedStyle = function (element, ...args) {
    if (inControl(element)) kept('getComputedStyle');
    return style.call(this, element, ...args);
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__curbsidePaints.push(entry.startTime);
  }).observe({ type: 'largest-contentful-paint', buffered: true });
})()`;

/** What has the keyboard's focus: its input type and its label. */
const focused = (page: Page) =>
  page.evaluate<string>(
    `[document.activeElement?.type, document.activeElement?.labels?.[0]?.textContent].join(' ')`,
  );

const vehicleType = (page: Page) => page.getByRole('radiogroup', { name: 'Vehicle type' });

/** The highlighted segment's box and the chosen option's, in the page's pixels. */
const highlightOn = async (control: Locator, label: string) => {
  const [indicator, chosen] = await Promise.all([
    control.locator('.mantine-SegmentedControl-indicator').boundingBox(),
    control.locator('label', { hasText: label }).boundingBox(),
  ]);
  if (!indicator || !chosen) return false;
  return (['x', 'y', 'width', 'height'] as const).every(
    (side) => Math.abs(indicator[side] - chosen[side]) < 0.5,
  );
};

it("the front queue's Car / Bus choice reads no layout, from its first draw (before the paint) to live and when a bus is chosen (h57v)", async () => {
  const { page } = await suite.open('front_demo', '/front-queue', {
    viewport: viewports.phone,
    touch: true,
    initScripts: [CONTROL_MEASURED],
  });
  const control = vehicleType(page);
  await control.waitFor();
  await connected(page);
  await page.waitForLoadState('networkidle');
  const paints = (await page.evaluate('window.__curbsidePaints')) as number[];
  expect(paints.length).toBeGreaterThan(0);
  // Nothing read before the keypad's paint, nor since.
  expect(await page.evaluate('window.__curbsideControlRead')).toEqual([]);
  // Car is chosen and highlighted; a tap on Bus moves the choice and the highlight, still unmeasured.
  expect(await control.getByRole('radio', { name: 'Car', exact: true }).isChecked()).toBe(true);
  expect(await highlightOn(control, 'Car')).toBe(true);
  // (The highlight's boxes just read by the test itself are not the page's.)
  await page.evaluate('window.__curbsideControlRead = []');
  await control.getByText('Bus', { exact: true }).tap();
  await expect.poll(() => control.getByRole('radio', { name: 'Bus', exact: true }).isChecked()).toBe(true);
  expect(await page.evaluate('window.__curbsideControlRead')).toEqual([]);
  await expect.poll(() => highlightOn(control, 'Bus'), { timeout: 10_000 }).toBe(true);
});

it('the Car / Bus choice is one radio group: one Tab stop, the arrow keys and a click choose, the bus chosen is queued as a bus, and axe finds nothing serious (h57v)', async () => {
  const { page } = await suite.open('front_demo', '/front-queue', { viewport: viewports.tablet });
  const control = vehicleType(page);
  await control.waitFor();
  const car = control.getByRole('radio', { name: 'Car', exact: true });
  const bus = control.getByRole('radio', { name: 'Bus', exact: true });
  // The spec's two choices, exactly, Car first and chosen.
  expect(await control.getByRole('radio').count()).toBe(2);
  await car.waitFor({ state: 'attached' });
  await bus.waitFor({ state: 'attached' });
  expect(await car.isChecked()).toBe(true);
  // One stop for Tab: from the chosen type the next stop is the number.
  await car.focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => bus.isChecked()).toBe(true);
  expect(await focused(page)).toBe('radio Bus');
  await page.keyboard.press('Tab');
  expect(await focused(page)).toBe('text Vehicle Number');
  await page.keyboard.press('Shift+Tab');
  expect(await focused(page)).toBe('radio Bus');
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => car.isChecked()).toBe(true);
  await expect.poll(() => highlightOn(control, 'Car'), { timeout: 10_000 }).toBe(true);
  // A click on Bus, a number on the keypad, Add to Queue: a bus is queued, and Bus stays chosen.
  await control.getByText('Bus', { exact: true }).click();
  await expect.poll(() => bus.isChecked()).toBe(true);
  const keypad = page.getByRole('group', { name: 'Keypad' });
  await keypad.getByRole('button', { name: '3', exact: true }).click();
  await page.getByRole('button', { name: 'Add to Queue' }).click();
  await expect
    .poll(
      async () =>
        (
          (await front.get(`/api/queue?sessionId=${sessionId}`)).body as Array<{
            vehicleType: string;
            vehicleNumber: string;
          }>
        ).map((entry) => `${entry.vehicleType} ${entry.vehicleNumber}`),
      { timeout: 15_000 },
    )
    .toEqual(['bus 3']);
  await expect.poll(() => page.getByRole('textbox', { name: 'Vehicle Number' }).inputValue()).toBe('');
  expect(await bus.isChecked()).toBe(true);
  await expect.poll(() => highlightOn(control, 'Bus'), { timeout: 10_000 }).toBe(true);
  await expectAccessible(page);
});

/**
 * Counts, in each React commit until the page's largest paint, Mantine's Modals drawn
 * (`window.__curbsideModalsBeforePaint`, the most in one commit), through React's DevTools hook.
 */
const MODALS_BEFORE_PAINT = `(() => {
  window.__curbsideModalsBeforePaint = 0;
  let painted = false;
  new PerformanceObserver(() => { painted = true; }).observe({ type: 'largest-contentful-paint', buffered: true });
  const count = (fiber) => {
    let found = 0;
    for (let node = fiber; node; node = node.sibling) {
      if (node.type && node.type.displayName === '@mantine/core/Modal') found++;
      found += count(node.child);
    }
    return found;
  };
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = { isDisabled: false, supportsFiber: true, renderers: new Map(),
    inject(renderer) { this.renderers.set(1, renderer); return 1; }, checkDCE() {}, onScheduleFiberRoot() {},
    onCommitFiberRoot(_, root) {
      if (!painted) window.__curbsideModalsBeforePaint = Math.max(window.__curbsideModalsBeforePaint, count(root.current.child));
    },
    onCommitFiberUnmount() {}, onPostCommitFiberRoot() {} };
})()`;

it("the front queue's first draw holds no closed dialog (Scan's, End Session's, an emergency's dismiss); Scan's is drawn when first opened and opens, and again (h57v)", async () => {
  const { page } = await suite.open('front_demo', '/front-queue', {
    viewport: viewports.tablet,
    initScripts: [MODALS_BEFORE_PAINT],
  });
  await vehicleType(page).waitFor();
  await connected(page);
  expect(await page.evaluate('window.__curbsideModalsBeforePaint')).toBe(0);
  // Scan opens its dialog, and again once closed.
  const scan = page.getByRole('dialog', { name: 'Scan placards' });
  for (const _opening of ['first', 'again']) {
    await page.getByRole('button', { name: 'Scan', exact: true }).click();
    await scan.waitFor();
    await page.keyboard.press('Escape');
    await scan.waitFor({ state: 'hidden' });
  }
  // (End Session's dialog, for the ranks that may end a session, is shell.test.ts's; the dismiss, the alerts'.)
});
