import { beforeAll, expect, it } from 'vitest';
import { viewports } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { queueCar } from '../support/car-line';
import { sessionBody } from '../support/fixtures';
import { signedIn } from '../support/server';

/**
 * Issue 57: a Mantine component that names itself (an input's label, a Popover's and a Menu's
 * target) keeps the id it was first drawn with. Mantine's `useId` swapped React's id for a random one
 * in a layout effect: a second, synchronous draw of each such component right after its first, in
 * the same task, which ran the whole commit's effects there too (`web/mantine-ids.ts`).
 */
const suite = browserSuite();

beforeAll(async () => {
  const front = await signedIn(suite.server.url, 'front_demo');
  const sessionId = (await front.post('/api/sessions', sessionBody())).body.id;
  await queueCar(front, sessionId, '101');
});

/** Records in `window.__curbsideIdSwaps` each id an element had and lost (`old → new`). */
const ID_SWAPS = `(() => {
  window.__curbsideIdSwaps = [];
  new MutationObserver((records) => {
    for (const record of records)
      if (record.oldValue) window.__curbsideIdSwaps.push(record.oldValue + ' → ' + record.target.id);
  }).observe(document, { attributes: true, attributeFilter: ['id'], attributeOldValue: true, subtree: true });
})()`;

it("keeps each input's and menu's first id: the front queue's keypad, its header's menus, an open menu", async () => {
  const { page } = await suite.open('front_demo', '/front-queue', {
    viewport: viewports.tablet,
    initScripts: [ID_SWAPS],
  });
  const number = page.getByLabel('Vehicle Number');
  await number.waitFor({ timeout: 30_000 });
  const userMenu = page.getByRole('button', { name: /Account menu/ });
  await userMenu.waitFor({ timeout: 30_000 });
  await userMenu.click();
  await page.getByRole('menu').waitFor({ timeout: 10_000 });
  await page.getByRole('group', { name: 'Car 101', exact: true }).waitFor({ timeout: 30_000 });
  // The input's label still names it by the id it was drawn with.
  const id = await number.getAttribute('id');
  expect(await page.locator(`label[for="${id}"]`).count()).toBe(1);
  expect(await page.evaluate('window.__curbsideIdSwaps')).toEqual([]);
}, 60_000);

it('logged no errors', () => {
  expect(suite.errors).toEqual([]);
});
