import { expect, it } from 'vitest';
import { webBundleSuite } from '../support/web-bundle';

/**
 * Issue 57 (h57u): the staff shell draws nothing until who is signed in and the running session
 * are read (TanStack Query), then the whole screen. An answer that comes after the shell's first
 * render reaches it through `useSyncExternalStore`, which React draws synchronously: the whole
 * screen in one task (365 ms at a phone's CPU before the front queue's paint). Here the shell's
 * gate (`useDrawnInTransition`, bundled with React's production build and TanStack Query as the app
 * has them) waits for an answer that comes after its first render, above 40 components of 10 ms:
 * they are drawn in slices (no long task of the browser's), once each, and show the answer.
 */
const entry = `
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { createRoot } from 'react-dom/client';
import { useDrawnInTransition } from './src/lib/drawn-in-transition';

const busy = (ms) => { const end = performance.now() + ms; while (performance.now() < end) {} };
const draws = [];
// The parts each task of the browser's drew: a microtask runs when the task that queued it ends.
const perTask = [];
let inTask = false;
function Part({ i, who }) {
  draws[i] = (draws[i] ?? 0) + 1;
  if (!inTask) {
    inTask = true;
    perTask.push(0);
    queueMicrotask(() => { inTask = false; });
  }
  perTask[perTask.length - 1] += 1;
  busy(10);
  return <span data-part={i}>{who}</span>;
}
function Shell() {
  const me = useQuery({ queryKey: ['auth', 'me'], queryFn: () => new Promise((answer) => setTimeout(() => answer('front_demo'), 100)) });
  const drawn = useDrawnInTransition(!me.isPending);
  if (!drawn) return null;
  return Array.from({ length: 40 }, (_, i) => <Part key={i} i={i} who={me.data} />);
}
window.draws = draws;
window.perTask = perTask;
createRoot(document.getElementById('root')).render(
  <QueryClientProvider client={new QueryClient()}><Shell /></QueryClientProvider>,
);
`;

const suite = webBundleSuite(entry);

it('draws a screen whose read answers after its first render in slices, once, with the answer', async () => {
  const page = await suite.browser.newPage();
  await page.setContent('<div id="root"></div>');
  await page.addScriptTag({ content: suite.script });
  await expect
    .poll(() => page.locator('[data-part]').allTextContents(), { timeout: 15_000 })
    .toEqual(Array(40).fill('front_demo'));
  // 40 × 10 ms drawn at once would be one task of 400 ms. In slices (React yields after 5 ms) each
  // task draws a part or two, counted as tasks, not timed: a busy machine stretches any task.
  const perTask = (await page.evaluate('window.perTask')) as number[];
  expect(perTask.reduce((sum, parts) => sum + parts, 0)).toBe(40);
  expect(Math.max(...perTask)).toBeLessThanOrEqual(2);
  expect(await page.evaluate('window.draws')).toEqual(Array(40).fill(1));
  await page.close();
});
