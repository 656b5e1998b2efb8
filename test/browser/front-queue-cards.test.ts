import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import {
  devToolsHook,
  expectAccessible,
  holdRequests,
  shotsDir,
  tooltipOf,
  viewports,
} from '../support/browser';
import { browserSuite, connected } from '../support/browser-suite';
import { queueCar } from '../support/car-line';
import { sessionBody } from '../support/fixtures';
import { signedIn } from '../support/server';

/**
 * Issue 57 (h57x): the front queue's cards after its lists' answers. A line's first cards are
 * drawn in one commit and the rest after them (a card's mount cannot be sliced), and the
 * session's marks (a teacher's releases) draw again only the cards whose children they mark.
 * h57z: a card's menu (a Mantine Menu, a Popover) is mounted only when it is first used, and then
 * behaves as before: by click and keyboard, its items, focus back to ⋮ on Escape. h57a: a card's ⋮
 * tooltip (a Mantine Tooltip) is mounted only on the button's first hover or keyboard focus.
 */
const suite = browserSuite();
/** The line of both tests: six cars, in this order. */
const LINE = ['101', '102', '103', '104', '105', '106'];
let sessionId: number;

beforeAll(async () => {
  const front = await signedIn(suite.server.url, 'front_demo');
  sessionId = (await front.post('/api/sessions', sessionBody())).body.id;
  for (const number of LINE) await queueCar(front, sessionId, number);
});

/**
 * Records in `window.__curbsideCardsAdded` how many cards each change of the page added (one
 * entry a change that added any: a commit's insertions reach one MutationObserver callback).
 */
const CARDS_ADDED = `(() => {
  window.__curbsideCardsAdded = [];
  new MutationObserver((records) => {
    let added = 0;
    for (const record of records)
      for (const node of record.addedNodes) {
        if (node.nodeType !== 1) continue;
        if (node.matches('[data-entry-id]')) added++;
        added += node.querySelectorAll('[data-entry-id]').length;
      }
    if (added > 0) window.__curbsideCardsAdded.push(added);
  }).observe(document, { childList: true, subtree: true });
})()`;

/**
 * Counts, in `window.__curbsideRenders`, each render of a named component (its `displayName`) by
 * the vehicle of its `entry` prop, through React's DevTools hook: a fiber drew in a commit when it
 * is new or React performed its work (the `PerformedWork` flag), and a subtree React did not
 * visit keeps its child (as React DevTools tells them).
 */
const RENDERS = `(() => {
  window.__curbsideRenders = {};
  const count = (fiber) => {
    for (let f = fiber; f; f = f.sibling) {
      const before = f.alternate;
      const name = typeof f.type === 'function' ? f.type.displayName : undefined;
      if (name && (before === null || (f.flags & 1) !== 0)) {
        const key = name + ' ' + (f.memoizedProps?.entry?.vehicleNumber ?? '');
        window.__curbsideRenders[key] = (window.__curbsideRenders[key] ?? 0) + 1;
      }
      if (f.child && (before === null || f.child !== before.child)) count(f.child);
    }
  };
  ${devToolsHook('count(root.current);')}
})()`;

it("draws a line's first three cards in one commit and the others after them", async () => {
  const { page } = await suite.open('front_demo', '/front-queue', {
    viewport: viewports.tablet,
    initScripts: [CARDS_ADDED],
  });
  const cars = page.getByRole('region', { name: 'Cars in Parking Lot' });
  for (const number of LINE) {
    await cars.getByRole('group', { name: `Car ${number}`, exact: true }).waitFor({ timeout: 30_000 });
  }
  await expect.poll(() => page.locator('[data-entry-id]').count()).toBe(6);
  const added = (await page.evaluate('window.__curbsideCardsAdded')) as number[];
  // The first commit with cards drew the first three (the top of the line), the next the rest.
  expect(added[0]).toBe(3);
  expect(added.reduce((sum, each) => sum + each, 0)).toBe(6);
  // In the line's order.
  const cards = await cars.getByRole('group', { name: /^Car \d+$/ }).all();
  const order = await Promise.all(cards.map((card) => card.getAttribute('aria-label')));
  expect(order).toEqual(LINE.map((number) => `Car ${number}`));
}, 60_000);

it("draws a card's marks again for its own children's marks only: not for the marks' answer, not for another car's release", async () => {
  const { page } = await suite.open('front_demo', '/front-queue', {
    viewport: viewports.tablet,
    initScripts: [RENDERS],
  });
  await page.getByRole('group', { name: 'Car 106', exact: true }).waitFor({ timeout: 30_000 });
  // Again, the session's marks answered once every card has been drawn.
  const answer = await holdRequests(page, '**/api/sessions/*/releases');
  const marksRead = page.waitForResponse((response) => response.url().includes('/releases'));
  await page.reload();
  await page.getByRole('group', { name: 'Car 106', exact: true }).waitFor({ timeout: 30_000 });
  await connected(page);
  answer();
  await marksRead;
  await page.waitForLoadState('networkidle');
  const renders = () => page.evaluate('({ ...window.__curbsideRenders })') as Promise<Record<string, number>>;
  const before = await renders();
  // No card's children were marked: the answer drew no card's marks again.
  for (const number of LINE) {
    expect(before[`ChildMarks ${number}`], `car ${number}`).toBe(1);
  }
  const teacher = await signedIn(suite.server.url, 'teacher_demo');
  const students = (await teacher.get(`/api/teacher/students?sessionId=${sessionId}`)).body as Array<{
    id: number;
    firstName: string;
    lastName: string;
  }>;
  const ava = students.find((s) => s.firstName === 'Ava' && s.lastName === 'Martinez');
  expect((await teacher.put(`/api/teacher/students/${ava?.id}/release`)).status).toBe(200);
  const card = page.getByRole('group', { name: 'Car 101', exact: true });
  await card.getByText('Ava M. released', { exact: true }).waitFor({ timeout: 10_000 });
  await page.waitForLoadState('networkidle');
  const after = await renders();
  expect(after['ChildMarks 101']).toBeGreaterThan(1);
  for (const number of LINE.slice(1)) {
    expect(after[`ChildMarks ${number}`], `car ${number}`).toBe(1);
  }
}, 60_000);

/**
 * Counts, in `window[global]`, the components named `displayName` mounted in the queue's cards (one
 * whose nearest element holds a card: `[data-entry-id]`), at each commit, through React's DevTools
 * hook (the staff shell's own menus and tooltips are not in a card).
 */
const mountedInCards = (displayName: string, global: string) => `(() => {
  window.${global} = 0;
  const hostOf = (fiber) => {
    for (let f = fiber.return; f; f = f.return) if (f.stateNode instanceof Element) return f.stateNode;
    return null;
  };
  const count = (fiber) => {
    let found = 0;
    for (let f = fiber; f; f = f.sibling) {
      if (f.type?.displayName === '${displayName}' && hostOf(f)?.querySelector(':scope > [data-entry-id]'))
        found++;
      if (f.child) found += count(f.child);
    }
    return found;
  };
  ${devToolsHook(`window.${global} = count(root.current);`)}
})()`;

/** The Mantine Menus mounted in the cards (h57z). */
const CARD_MENUS = mountedInCards('@mantine/core/Menu', '__curbsideCardMenus');
/** The Mantine Tooltips mounted in the cards (h57a). */
const CARD_TOOLTIPS = mountedInCards('@mantine/core/Tooltip', '__curbsideCardTooltips');

const ACTIONS = 'Actions (or press and hold the card)';

/** The front queue on a tablet with `initScript`, once the six cars are drawn and its reads done. */
const lineOnTablet = async (initScript: string) => {
  const { page } = await suite.open('front_demo', '/front-queue', {
    viewport: viewports.tablet,
    initScripts: [initScript],
  });
  for (const number of LINE) {
    await page.getByRole('group', { name: `Car ${number}`, exact: true }).waitFor({ timeout: 30_000 });
  }
  await page.waitForLoadState('networkidle');
  return page;
};

it("mounts a card's tooltip only when its ⋮ is hovered or focused by keyboard; it then opens on that hover and that focus, on the same button", async () => {
  const page = await lineOnTablet(CARD_TOOLTIPS);
  const cardTooltips = () => page.evaluate('window.__curbsideCardTooltips') as Promise<number>;
  expect(await cardTooltips()).toBe(0);
  // The ⋮ buttons as drawn: the same elements must carry the tooltips (never remounted).
  await page.evaluate(
    `window.__curbsideActions = [...document.querySelectorAll('button[aria-label^="Actions for Car"]')]`,
  );
  const same = (number: string) =>
    page.evaluate(
      `window.__curbsideActions.includes(document.querySelector('button[aria-label="Actions for Car ${number}"]'))`,
    ) as Promise<boolean>;

  // A mouse resting on Car 101's ⋮: its tooltip mounted, and it opens, naming the button.
  const first = page.getByRole('button', { name: 'Actions for Car 101', exact: true });
  await page.mouse.move(0, 0);
  await first.hover();
  await expect.poll(() => tooltipOf(first), { timeout: 10_000 }).toBe(ACTIONS);
  expect(await cardTooltips()).toBe(1);
  expect(await same('101')).toBe(true);
  await page.mouse.move(0, 0);
  await expect.poll(() => tooltipOf(first), { timeout: 10_000 }).toBeNull();

  // The keyboard on Car 102's ⋮: mounted and open on that focus, closed when focus moves on.
  const second = page.getByRole('button', { name: 'Actions for Car 102', exact: true });
  await second.focus();
  await expect.poll(() => tooltipOf(second), { timeout: 10_000 }).toBe(ACTIONS);
  expect(await cardTooltips()).toBe(2);
  expect(await same('102')).toBe(true);
  await page.keyboard.press('Escape');
  await expect.poll(() => tooltipOf(second), { timeout: 10_000 }).toBeNull();

  // Hovered again, Car 101's tooltip (mounted now) opens as before; the others were never mounted.
  await first.hover();
  await expect.poll(() => tooltipOf(first), { timeout: 10_000 }).toBe(ACTIONS);
  expect(await cardTooltips()).toBe(2);
}, 60_000);

it("mounts a card's menu only when it is used; it opens by click and by keyboard, its items work, Escape gives focus back to ⋮", async () => {
  const page = await lineOnTablet(CARD_MENUS);
  const cardMenus = () => page.evaluate('window.__curbsideCardMenus') as Promise<number>;
  expect(await cardMenus()).toBe(0);
  await page.screenshot({ path: join(shotsDir(), 'front-queue-cards-tablet.png') });
  const focused = () =>
    page.evaluate("document.activeElement?.getAttribute('aria-label') ?? null") as Promise<string | null>;

  // By click: the menu of Car 101, named after it; Escape closes it and focus is back on its ⋮.
  const first = page.getByRole('button', { name: 'Actions for Car 101', exact: true });
  await expect.poll(() => first.getAttribute('aria-haspopup')).toBe('menu');
  await first.click();
  const menu = page.getByRole('menu');
  await menu.waitFor({ timeout: 10_000 });
  for (const item of ['Child picked up', 'Vehicle left', 'Remove from queue']) {
    await menu.getByRole('menuitem', { name: item, exact: true }).waitFor();
  }
  expect(await first.getAttribute('aria-expanded')).toBe('true');
  expect(await page.locator(`#${await first.getAttribute('aria-controls')}`).getAttribute('role')).toBe(
    'menu',
  );
  expect(await cardMenus()).toBe(1);
  await page.screenshot({ path: join(shotsDir(), 'front-queue-card-menu-tablet.png') });
  await expectAccessible(page);
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'hidden', timeout: 10_000 });
  await expect.poll(focused, { timeout: 10_000 }).toBe('Actions for Car 101');
  expect(await first.getAttribute('aria-expanded')).toBe('false');

  // By keyboard, on another card: Enter opens it, the arrows reach its items, Escape gives focus back.
  const second = page.getByRole('button', { name: 'Actions for Car 102', exact: true });
  await second.focus();
  await page.keyboard.press('Enter');
  await menu.waitFor({ timeout: 10_000 });
  const item = () =>
    page.evaluate(
      "document.activeElement?.getAttribute('role') === 'menuitem' ? document.activeElement.textContent : null",
    ) as Promise<string | null>;
  await expect.poll(item, { timeout: 10_000 }).toBe('Child picked up');
  await page.keyboard.press('ArrowDown');
  await expect.poll(item, { timeout: 10_000 }).toBe('Vehicle left');
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'hidden', timeout: 10_000 });
  await expect.poll(focused, { timeout: 10_000 }).toBe('Actions for Car 102');
  expect(await cardMenus()).toBe(2);

  // Its items work: Vehicle left takes Car 106 out of the line.
  await page.getByRole('button', { name: 'Actions for Car 106', exact: true }).click();
  await menu.getByRole('menuitem', { name: 'Vehicle left', exact: true }).click();
  await page
    .getByRole('group', { name: 'Car 106', exact: true })
    .waitFor({ state: 'detached', timeout: 10_000 });
}, 60_000);

it('logged no errors on the screens it opened', () => {
  expect(suite.errors).toEqual([]);
});
