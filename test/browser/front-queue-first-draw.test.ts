import type { Locator, Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, viewports } from '../support/browser';
import { browserSuite, painted } from '../support/browser-suite';
import { queueCar } from '../support/car-line';
import { sessionBody } from '../support/fixtures';
import type { Client } from '../support/server';

/**
 * Issue 57, the front queue's first draw. A queue card's ⋮ menu and its tooltip are mounted when
 * the button is first used, not in every card's first draw (floating-ui's hooks for each card, on
 * a tablet's load); until then the button is drawn the same, with the same name and role, and its
 * first tap, click or Enter opens the menu (no tap is lost), whose items work and which gives the
 * focus back. The add card's Car / Bus choice is drawn by its chosen item, without Mantine's
 * floating indicator (which measures the page as it mounts).
 */
const suite = browserSuite({ reuseSignIns: true, closeAfterEach: true });
const { errors } = suite;
let front: Client;
let sessionId: number;

beforeAll(async () => {
  front = await suite.client('front_demo');
  sessionId = (await front.post('/api/sessions', sessionBody())).body.id;
  for (const number of ['301', '302', '303', '304']) await queueCar(front, sessionId, number);
});

afterEach(() => {
  expect(errors.splice(0)).toEqual([]);
});

const open = async (touch: boolean) => {
  const { page } = await suite.open('front_demo', '/front-queue', { viewport: viewports.tablet, touch });
  await page.getByRole('group', { name: 'Car 304', exact: true }).waitFor({ timeout: 30_000 });
  await painted(page);
  return page;
};

const actions = (page: Page, number: string) =>
  page.getByRole('button', { name: `Actions for Car ${number}`, exact: true });

/**
 * The cards' ⋮ buttons that carry a menu: Mantine's menu names its button by id (the
 * dropdown's `aria-labelledby`), a plain button has none.
 */
const withMenu = (page: Page) =>
  page
    .getByRole('button', { name: /^Actions for / })
    .evaluateAll((buttons: any[]) => buttons.filter((button) => button.id !== '').length);

const menu = (page: Page) => page.getByRole('menu');

/** How many of a Mantine component (by its display name) the screen's React tree holds. */
const mountedCount = (page: Page, displayName: string) =>
  page.evaluate((name) => {
    const root = (globalThis as any).document.getElementById('root');
    const key = Object.keys(root).find((k) => k.startsWith('__reactContainer$')) as string;
    let count = 0;
    const stack = [root[key]];
    while (stack.length > 0) {
      const fiber = stack.pop();
      if (!fiber) continue;
      if (fiber.type?.displayName === name) count++;
      stack.push(fiber.child, fiber.sibling);
    }
    return count;
  }, displayName);

const focusedName = (page: Page) =>
  page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('aria-label') ?? null);

const menuItems = (page: Page) => menu(page).getByRole('menuitem').allTextContents();

const expectMenuOf = async (page: Page, button: Locator, number: string) => {
  await menu(page).waitFor({ timeout: 10_000 });
  expect(await menu(page).getByText(`Car ${number}`, { exact: true }).count()).toBe(1);
  expect(await menuItems(page)).toEqual(['Child picked up', 'Vehicle left', 'Remove from queue']);
  expect(await button.getAttribute('aria-expanded')).toBe('true');
};

describe('a queue card’s ⋮ menu', () => {
  it('is not mounted until used; the first tap opens it and its item works (tablet, touch)', async () => {
    const page = await open(true);
    expect(await page.getByRole('button', { name: /^Actions for / }).count()).toBeGreaterThanOrEqual(4);
    expect(await withMenu(page)).toBe(0);
    const button = actions(page, '301');
    expect(await button.getAttribute('aria-haspopup')).toBe('menu');
    expect(await button.getAttribute('aria-expanded')).toBe('false');

    await button.tap();
    await expectMenuOf(page, actions(page, '301'), '301');
    // Only the card used has its menu.
    expect(await withMenu(page)).toBe(1);
    // A touch shows no tooltip (the button keeps its name).
    expect(await page.getByRole('tooltip').count()).toBe(0);
    await painted(page);
    await expectAccessible(page);

    await menu(page).getByRole('menuitem', { name: 'Vehicle left' }).tap();
    await page.getByRole('group', { name: 'Car 301', exact: true }).waitFor({ state: 'detached' });
    await expect
      .poll(async () =>
        ((await front.get(`/api/queue?sessionId=${sessionId}`)).body as any[]).map((e) => e.vehicleNumber),
      )
      .not.toContain('301');
  }, 90_000);

  it('opens from the keyboard at its first Enter, and gives the focus back when closed', async () => {
    const page = await open(false);
    expect(await withMenu(page)).toBe(0);
    // The card's plate, then its ⋮ button.
    await page.getByRole('group', { name: 'Car 302', exact: true }).getByRole('button').first().focus();
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Actions for Car 302');
    await page.keyboard.press('Enter');
    await expectMenuOf(page, actions(page, '302'), '302');
    await page.keyboard.press('Escape');
    await menu(page).waitFor({ state: 'detached' });
    await expect.poll(() => focusedName(page)).toBe('Actions for Car 302');

    // Opened again, its items reached by the keyboard.
    await page.keyboard.press('Enter');
    await expectMenuOf(page, actions(page, '302'), '302');
    await page.keyboard.press('ArrowDown');
    await expect
      .poll(() => page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('role')))
      .toBe('menuitem');
  }, 90_000);

  it('opens at the first click of a mouse', async () => {
    const page = await open(false);
    await actions(page, '303').click();
    await expectMenuOf(page, actions(page, '303'), '303');
    await page.keyboard.press('Escape');
    await menu(page).waitFor({ state: 'detached' });
    await expect.poll(() => focusedName(page)).toBe('Actions for Car 303');
  }, 90_000);
});

/** The chosen vehicle type as drawn: the radio checked, and the item whose own background marks it. */
const vehicleType = (page: Page) =>
  page.getByRole('radiogroup', { name: 'Vehicle type' }).evaluate((group: any) => {
    const view = group.ownerDocument.defaultView;
    const radios = [...group.querySelectorAll('input[type="radio"]')] as any[];
    const marked = radios
      .map((radio) => radio.labels[0])
      .filter((label) => {
        const before = view.getComputedStyle(label, '::before');
        return before.display !== 'none' && before.backgroundColor === 'rgb(255, 255, 255)';
      })
      .map((label) => label.textContent);
    return {
      checked: radios.filter((radio) => radio.checked).map((radio) => radio.labels[0].textContent),
      marked,
      // Mantine's floating indicator, which measures the chosen item as it mounts.
      indicators: group.querySelectorAll('.mantine-SegmentedControl-indicator').length,
    };
  });

describe('the front queue’s dialogs', () => {
  it('are not mounted until asked for; Scan opens its dialog at the first tap', async () => {
    const page = await open(true);
    expect(await mountedCount(page, '@mantine/core/Modal')).toBe(0);
    await page.getByRole('button', { name: 'Scan', exact: true }).tap();
    const dialog = page.getByRole('dialog', { name: 'Scan placards' });
    await dialog.waitFor({ timeout: 10_000 });
    expect(await mountedCount(page, '@mantine/core/Modal')).toBe(1);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Scan', exact: true }).tap();
    await dialog.waitFor({ timeout: 10_000 });
  }, 90_000);
});

describe('the add card’s vehicle type', () => {
  it('is drawn by the chosen item itself (no measured indicator), by tap and by keyboard', async () => {
    const page = await open(true);
    expect(await vehicleType(page)).toEqual({ checked: ['Car'], marked: ['Car'], indicators: 0 });
    const group = page.getByRole('radiogroup', { name: 'Vehicle type' });
    await group.getByText('Bus', { exact: true }).tap();
    await expect.poll(() => vehicleType(page)).toEqual({ checked: ['Bus'], marked: ['Bus'], indicators: 0 });
    // The keyboard's arrows move the choice, as between radios.
    await page.getByRole('radio', { name: 'Bus' }).focus();
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => vehicleType(page)).toEqual({ checked: ['Car'], marked: ['Car'], indicators: 0 });
    await page.getByRole('radio', { name: 'Car' }).press('ArrowRight');
    await expect.poll(() => vehicleType(page)).toEqual({ checked: ['Bus'], marked: ['Bus'], indicators: 0 });
    await painted(page);
    await expectAccessible(page);
  }, 90_000);
});
