import { expect, it } from 'vitest';
import { webBundleSuite } from '../support/web-bundle';

/**
 * Issue 57 (h57t): the stores the front queue's lists read in their transitions. React renders a
 * transition in slices of a few ms, yielding to the browser between them; but it checks every
 * `useSyncExternalStore` read in that render once the render is done, and when one changed
 * meanwhile it draws the whole transition again, at once, in one task. The queue's cards read the
 * second clock twice each (their wait, their overdue look): a second turning while they were drawn
 * made React draw every card again in one long task on a phone. Here the app's own hooks
 * (`useEverySecond`, `useCommittedStore`, bundled with React's production build as the app has it)
 * are drawn in a transition slow enough to be sliced, with the store changing meanwhile: each
 * component is drawn once before its commit, and still shows the store's new value after it.
 */
const entry = `
import { startTransition, useLayoutEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { useEverySecond } from './src/features/queue/use-now';
import { useCommittedStore } from './src/features/live/committed-store';

// Each component's first draw is slow (30 ms), as a card's first draw is at a phone's CPU.
const busy = (ms) => { const end = performance.now() + ms; while (performance.now() < end) {} };

// A store like the live connection's state: changed by a timer while the transition is drawn.
let state = 'connecting';
const listeners = new Set();
const store = {
  subscribe: (changed) => { listeners.add(changed); return () => listeners.delete(changed); },
  set: (next) => { state = next; for (const each of listeners) each(); },
};

const draws = { clock: [], store: [] };
function Clock({ i }) {
  draws.clock[i] = (draws.clock[i] ?? 0) + 1;
  const second = useEverySecond((now) => Math.floor(now / 1000));
  if (draws.clock[i] === 1) busy(30);
  return <span data-clock={i}>{second}</span>;
}
function Status({ i }) {
  draws.store[i] = (draws.store[i] ?? 0) + 1;
  const value = useCommittedStore(store.subscribe, () => state);
  if (draws.store[i] === 1) busy(30);
  return <span data-status={i}>{value}</span>;
}
function Screen({ count, done }) {
  useLayoutEffect(() => done({ clock: [...draws.clock], store: [...draws.store] }), [done]);
  return (
    <>
      {Array.from({ length: count }, (_, i) => <Clock key={'c' + i} i={i} />)}
      {Array.from({ length: count }, (_, i) => <Status key={'s' + i} i={i} />)}
    </>
  );
}
window.drawInTransition = (count) => new Promise((done) => {
  const root = createRoot(document.getElementById('root'));
  // The store changes while the transition is drawn (its slices leave the browser room for this timer).
  setTimeout(() => store.set('open'), 200);
  startTransition(() => root.render(<Screen count={count} done={done} />));
});
`;

const suite = webBundleSuite(entry);

it('draws a transition that reads the second clock and the live state once, in slices, and follows their changes', async () => {
  const page = await suite.browser.newPage();
  await page.setContent('<div id="root"></div>');
  await page.addScriptTag({ content: suite.script });
  // 2 × 40 components of 30 ms: 2.4 s of drawing, across at least two turns of the second and
  // the store's change at 200 ms.
  const drawn = (await page.evaluate('drawInTransition(40)')) as { clock: number[]; store: number[] };
  expect(drawn.clock).toEqual(Array(40).fill(1));
  expect(drawn.store).toEqual(Array(40).fill(1));
  // What changed while they were drawn is shown once they are subscribed: the store's new value
  // in every one, and one second for every clock (drawn again when it turns).
  await expect.poll(() => page.locator('[data-status]').allTextContents()).toEqual(Array(40).fill('open'));
  await expect
    .poll(() =>
      page
        .locator('[data-clock]')
        .allTextContents()
        .then((shown) => new Set(shown).size),
    )
    .toBe(1);
  const shown = Number(await page.locator('[data-clock="0"]').textContent());
  const second = (await page.evaluate('Math.floor(Date.now() / 1000)')) as number;
  expect(second - shown).toBeLessThanOrEqual(1);
  await page.close();
});
