import type { Page, WebSocketRoute } from 'playwright-core';
import { expect, it } from 'vitest';
import { viewports } from '../support/browser';
import { browserSuite, connected } from '../support/browser-suite';

/**
 * Issue 57: the parent dashboard on a phone reads what it shows once. Its live connection opens
 * after the first paint; opening it reads nothing the page already has. A connection that drops
 * and comes back still reads everything again: a change made while it was down reached no
 * socket of the page.
 */
const suite = browserSuite({ reuseSignIns: true });

/** Every API read the page made (its early script's included), as path and query, in order. */
const apiReads = (page: Page) =>
  page.evaluate<string[]>(`performance
    .getEntriesByType('resource')
    .filter((entry) => entry.initiatorType === 'fetch' && new URL(entry.name).pathname.startsWith('/api/'))
    .map((entry) => { const url = new URL(entry.name); return url.pathname + url.search; })`);

/** How many times each read was made. */
const counted = (reads: readonly string[]) => {
  const counts: Record<string, number> = {};
  for (const read of reads) counts[read] = (counts[read] ?? 0) + 1;
  return counts;
};

/** The dashboard on a phone, its live connection passed through to the server (to be dropped by a test). */
const openDashboard = async () => {
  const { page } = await suite.open('parent_demo', '/parent-dashboard', {
    viewport: viewports.phone,
    touch: true,
  });
  const sockets: WebSocketRoute[] = [];
  await page.context().routeWebSocket(/\/ws/, (socket) => {
    socket.connectToServer();
    sockets.push(socket);
  });
  await page.reload();
  await page.getByRole('article').first().waitFor();
  await page
    .getByRole('heading', { name: /^Who else may pick up / })
    .first()
    .waitFor();
  await connected(page);
  await page.waitForLoadState('networkidle');
  return { page, sockets };
};

it('the dashboard reads each of its lists once from its load to its live connection', async () => {
  const { page } = await openDashboard();
  const counts = counted(await apiReads(page));
  expect(Object.keys(counts)).toEqual(
    expect.arrayContaining([
      '/api/parent/students/status',
      '/api/parent/students',
      '/api/parent/ways-home',
      '/api/parent/authorized-pickups',
      '/api/parent/arrivals',
    ]),
  );
  expect(Object.keys(counts).some((read) => read.startsWith('/api/dismissal-changes?from='))).toBe(true);
  expect(Object.entries(counts).filter(([, count]) => count > 1)).toEqual([]);
});

it('the dashboard reads its lists again when its live connection comes back after a drop', async () => {
  const { page, sockets } = await openDashboard();
  const before = counted(await apiReads(page));
  expect(sockets.length).toBeGreaterThan(0);
  await sockets.at(-1)?.close();
  await page.locator('html:not([data-live="open"])').waitFor({ state: 'attached' });
  await connected(page);
  const again = (read: string) => async () =>
    (counted(await apiReads(page))[read] ?? 0) - (before[read] ?? 0);
  for (const read of [
    '/api/parent/students/status',
    '/api/parent/ways-home',
    '/api/parent/authorized-pickups',
    '/api/parent/arrivals',
  ]) {
    await expect.poll(again(read), { timeout: 20_000 }).toBeGreaterThan(0);
  }
});

it('logged no errors on the screens it opened', () => {
  expect(suite.errors).toEqual([]);
});
