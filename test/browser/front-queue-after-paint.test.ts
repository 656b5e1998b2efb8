import { beforeAll, expect, it } from 'vitest';
import { devToolsHook, viewports } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { queueCar } from '../support/car-line';
import { sessionBody } from '../support/fixtures';
import { signedIn } from '../support/server';

/**
 * Issue 57 (h57kb): what the front queue draws after its keypad's paint, in the commits Lighthouse's
 * replay counts (each task over 12.5 ms at a laptop's CPU). Counted through React's DevTools hook:
 * the cards each commit mounts over both sections and the components each card draws; the header's
 * menus (Mantine's Menu and Popover) mounted only when used; and no `<style>` element inserted by
 * a responsive style prop in the lists (Mantine's `InlineStyles`, a style recalculation each).
 */
const suite = browserSuite();
const CARS = ['101', '102', '103'];
const BUSES = ['2', '4', '5'];

beforeAll(async () => {
  const front = await signedIn(suite.server.url, 'front_demo');
  const sessionId = (await front.post('/api/sessions', sessionBody())).body.id;
  for (const number of CARS) await queueCar(front, sessionId, number);
  const back = await signedIn(suite.server.url, 'back_demo');
  for (const vehicleNumber of BUSES) {
    const answer = await back.post('/api/queue', { sessionId, vehicleNumber, vehicleType: 'bus' });
    expect(answer.status).toBe(201);
  }
});

/**
 * In `window.__curbsideCommits`, one entry a commit: the cards it mounted (an element with
 * `data-entry-id` not seen before) and, for each, the components drawn in the card (function, class, forwardRef,
 * memo and context fibers under the card's outer element); and in `window.__curbsidePopovers` the
 * Mantine Popovers mounted anywhere on the page after the last commit.
 */
const COMMITS = `(() => {
  window.__curbsideCommits = [];
  window.__curbsidePopovers = 0;
  const COMPONENT = new Set([0, 1, 10, 11, 14, 15]);
  // A card's element, once drawn: a card is counted in the commit that first drew its element.
  const seen = new WeakSet();
  const components = (fiber) => {
    let found = 0;
    for (let f = fiber; f; f = f.sibling) {
      if (COMPONENT.has(f.tag)) found++;
      if (f.child) found += components(f.child);
    }
    return found;
  };
  const walk = (fiber, commit) => {
    for (let f = fiber; f; f = f.sibling) {
      if (f.type?.displayName === '@mantine/core/Popover') commit.popovers++;
      if (typeof f.type === 'string' && f.memoizedProps?.['data-entry-id'] && !seen.has(f.stateNode)) {
        seen.add(f.stateNode);
        let outer = f.return;
        while (outer && typeof outer.type !== 'string') outer = outer.return;
        commit.cards.push(outer ? components(outer.child) : -1);
      }
      if (f.child) walk(f.child, commit);
    }
  };
  ${devToolsHook(`
  const commit = { cards: [], popovers: 0 };
  walk(root.current, commit);
  window.__curbsidePopovers = commit.popovers;
  if (commit.cards.length > 0) window.__curbsideCommits.push(commit.cards);
`)}
})()`;

/**
 * In `window.__curbsideLists`, the commit (counted from the page's first) in which each of the lists
 * beside and below the keypad was first in the page: the alert panel, the queue, the recent pickups.
 */
const LISTS = `(() => {
  window.__curbsideLists = {};
  let commit = 0;
  const present = {
    alerts: () => document.querySelector('section[aria-label^="Alerts"]'),
    queue: () => [...document.querySelectorAll('h2')].find((h) => h.textContent === 'Current Queue'),
    recent: () => [...document.querySelectorAll('h2')].find((h) => h.textContent === 'Recent Pickups'),
  };
  ${devToolsHook(`
  commit++;
  for (const [name, found] of Object.entries(present))
    if (!(name in window.__curbsideLists) && found()) window.__curbsideLists[name] = commit;
`)}
})()`;

const openLine = async (script = COMMITS) => {
  const { page, errors } = await suite.open('front_demo', '/front-queue', {
    viewport: viewports.tablet,
    initScripts: [script],
  });
  for (const number of CARS)
    await page.getByRole('group', { name: `Car ${number}`, exact: true }).waitFor({ timeout: 30_000 });
  for (const number of BUSES)
    await page.getByRole('group', { name: `Bus B${number}`, exact: true }).waitFor({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  return { page, errors };
};

it('mounts the queue three cards a commit over both sections, each card drawing 16 components at most', async () => {
  const { page, errors } = await openLine();
  const commits = (await page.evaluate('window.__curbsideCommits')) as number[][];
  // Three cars, then three buses: no commit mounts more than three cards, and all six are mounted.
  expect(commits.map((cards) => cards.length)).toEqual([3, 3]);
  for (const card of commits.flat()) expect(card).toBeLessThanOrEqual(16);
  expect(errors).toEqual([]);
}, 60_000);

it("mounts no header menu before it is used, and the menus still open: the user's, the session's", async () => {
  const { page, errors } = await openLine();
  // The lists drawn, the menus' code come: no Popover on the page (the header's menus mount on use).
  await expect.poll(() => page.evaluate('window.__curbsidePopovers'), { timeout: 10_000 }).toBe(0);
  await page.getByRole('button', { name: /^Account menu for / }).click();
  await page.getByRole('menuitem', { name: 'Profile', exact: true }).waitFor({ timeout: 10_000 });
  expect(await page.evaluate('window.__curbsidePopovers')).toBe(1);
  await page.keyboard.press('Escape');
  await page.getByRole('menuitem', { name: 'Profile', exact: true }).waitFor({ state: 'hidden' });
  await page.getByTestId('session-pill').click();
  await page.getByText(/^Ends in /).waitFor({ timeout: 10_000 });
  expect(await page.evaluate('window.__curbsidePopovers')).toBe(2);
  expect(errors).toEqual([]);
}, 60_000);

it('inserts no style element of a responsive style prop in the lists: the alert panel, the queue, the recent pickups', async () => {
  const { page, errors } = await openLine();
  await page.getByRole('heading', { name: 'Recent Pickups' }).waitFor({ timeout: 30_000 });
  // Mantine's InlineStyles draws its <style> just before the element it styles, or inside it.
  const styles = await page.evaluate(`(() => {
    const lists = [...document.querySelectorAll('h2')]
      .filter((heading) => ['Current Queue', 'Recent Pickups'].includes(heading.textContent))
      .map((heading) => heading.closest('.mantine-Card-root'))
      .concat([...document.querySelectorAll('section[aria-label^="Alerts"]')]);
    return lists.flatMap((list) => [
      ...list.querySelectorAll('style'),
      ...(list.previousElementSibling?.tagName === 'STYLE' ? [list.previousElementSibling] : []),
    ]).map((style) => style.textContent);
  })()`);
  expect(styles).toEqual([]);
  expect(errors).toEqual([]);
}, 60_000);

it('draws the lists one a commit, top down: the alert panel, then the queue, then the recent pickups below them', async () => {
  const { page, errors } = await openLine(LISTS);
  await page.getByRole('heading', { name: 'Recent Pickups' }).waitFor({ timeout: 30_000 });
  const lists = (await page.evaluate('window.__curbsideLists')) as Record<string, number>;
  // Each list's effects (its reads asked, its live events heard) run in a task of their own.
  expect(lists.queue).toBeGreaterThan(lists.alerts ?? Number.POSITIVE_INFINITY);
  expect(lists.recent).toBeGreaterThan(lists.queue ?? Number.POSITIVE_INFINITY);
  expect(errors).toEqual([]);
}, 60_000);

/**
 * In `window.__curbsideLinkBatches`, the `<link>`s appended to the page's head, one entry a task (a
 * MutationObserver's records come at the end of the task that made them): each link's file.
 */
const LINK_BATCHES = `(() => {
  window.__curbsideLinkBatches = [];
  new MutationObserver((records) => {
    const files = records.flatMap((record) => [...record.addedNodes])
      .filter((node) => node.nodeName === 'LINK')
      .map((link) => link.href.replace(/^.*\\//, ''));
    if (files.length > 0) window.__curbsideLinkBatches.push(files);
  }).observe(document, { childList: true, subtree: true });
})()`;

it("asks for the lists' code a few files a task, after the keypad's paint: four links a task at most", async () => {
  const { page, errors } = await openLine(LINK_BATCHES);
  const batches = (await page.evaluate('window.__curbsideLinkBatches')) as string[][];
  // Vite's preload of the lists' import names its own chunk first, then what it imports.
  const first = batches.findIndex((files) => files.some((file) => file.startsWith('front-queue-lists-')));
  expect(first).toBeGreaterThan(0);
  const lists = batches.slice(first);
  const asked = lists.flat();
  for (const wanted of [
    /^car-line-kit-.*\.js$/,
    /^car-line-kit-.*\.css$/,
    /^queue-list-.*\.js$/,
    /^arrivals-.*\.js$/,
  ])
    expect(asked.some((file) => wanted.test(file))).toBe(true);
  // 18 files: in one task they were one long task at a phone's CPU.
  expect(asked.length).toBeGreaterThanOrEqual(12);
  expect(Math.max(...lists.map((files) => files.length))).toBeLessThanOrEqual(4);
  expect(errors).toEqual([]);
}, 60_000);
