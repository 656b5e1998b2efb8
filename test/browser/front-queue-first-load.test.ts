import type { Page, WebSocketRoute } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { MARK_KEYPAD, viewports } from '../support/browser';
import { browserSuite, connected } from '../support/browser-suite';
import { sessionBody } from '../support/fixtures';
import { signedIn } from '../support/server';

/**
 * Issue 57 (h57l): the front queue on a tablet reads each of its lists once from its load to
 * live. Its live connection opens as soon as the user is known and the screen's lists (alerts,
 * arrivals, the queue, recent pickups) are asked once the keypad is painted and the connection
 * is open, so none of them is read again when it opens; what the shell asked before it opened
 * (the running session, the school, the banner's alerts) is, as always (a change made
 * meanwhile reached no socket). A connection that drops and comes back reads every list again.
 */
const suite = browserSuite();

beforeAll(async () => {
  const front = await signedIn(suite.server.url, 'front_demo');
  const session = await front.post('/api/sessions', sessionBody());
  expect(session.status).toBe(201);
  for (const vehicleNumber of ['101', '102', '103']) {
    const queued = await front.post('/api/queue', {
      sessionId: session.body.id,
      vehicleNumber,
      vehicleType: 'car',
    });
    expect(queued.status).toBe(201);
  }
});

/** Notes when the page's first live connection opened (`window.liveOpenedAt`, the page's clock). */
const NOTE_OPEN = `(() => {
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('open', () => { window.liveOpenedAt ??= performance.now(); });
    }
  };
})();`;

interface Read {
  url: string;
  startTime: number;
}

/** Every API read the page made (its early script's included), as path and query and when it was asked, in order. */
const apiReads = (page: Page) =>
  page.evaluate<Read[]>(`performance
    .getEntriesByType('resource')
    .filter((entry) => entry.initiatorType === 'fetch' && new URL(entry.name).pathname.startsWith('/api/'))
    .map((entry) => { const url = new URL(entry.name); return { url: url.pathname + url.search, startTime: entry.startTime }; })`);

/** How many times each read was made. */
const counted = (reads: readonly Read[]) => {
  const counts: Record<string, number> = {};
  for (const { url } of reads) counts[url] = (counts[url] ?? 0) + 1;
  return counts;
};

/** The front queue on a tablet with its three cars drawn and live, its socket passed through to the server. */
const openFrontQueue = async () => {
  const { page } = await suite.open('front_demo', '/front-queue', {
    viewport: viewports.tablet,
    initScripts: [NOTE_OPEN],
  });
  const sockets: WebSocketRoute[] = [];
  await page.context().routeWebSocket(/\/ws/, (socket) => {
    socket.connectToServer();
    sockets.push(socket);
  });
  await page.reload();
  for (const vehicle of ['Car 101', 'Car 102', 'Car 103']) {
    await page.getByRole('group', { name: vehicle, exact: true }).waitFor();
  }
  await connected(page);
  await page.waitForLoadState('networkidle');
  return { page, sockets };
};

it('the front queue reads each of its lists once from its load to its live connection', async () => {
  const { page } = await openFrontQueue();
  const reads = await apiReads(page);
  const openedAt = await page.evaluate<number>('window.liveOpenedAt');
  const session = (path: string) => (read: Read) => read.url.startsWith(`${path}?sessionId=`);
  // The screen's lists: asked once the connection was open, and once.
  for (const list of ['/api/queue', '/api/arrivals', '/api/alerts']) {
    const made = reads.filter(session(list));
    expect(made.length, list).toBeGreaterThan(0);
    expect(made.filter((read) => read.startTime < openedAt).map((read) => read.url)).toEqual([]);
  }
  // Every read first asked after it opened is asked once; what was asked before it is read once more.
  const counts = counted(reads);
  const firstAsked = (url: string) => reads.find((read) => read.url === url)?.startTime ?? 0;
  expect(
    Object.entries(counts).filter(([url, count]) => count > (firstAsked(url) < openedAt ? 2 : 1)),
  ).toEqual([]);
}, 60_000);

it("what the shell read before its live connection opened is read again after the keypad's paint, not before it (h57w)", async () => {
  const { page } = await suite.open('front_demo', '/front-queue', {
    viewport: viewports.tablet,
    initScripts: [NOTE_OPEN, MARK_KEYPAD],
  });
  // The running session's first answer on the reload is held until the live connection has opened
  // (at most 15 s): the connection opens while the shell waits for it, as on a slow phone. (The
  // first load's own reads again are over first: none of them is the one held.)
  await page.waitForLoadState('networkidle');
  let held = false;
  await page.route(/\/api\/sessions\/active$/, async (route) => {
    if (!held) {
      held = true;
      await page
        .waitForFunction(
          () => (globalThis as { liveOpenedAt?: number }).liveOpenedAt !== undefined,
          undefined,
          {
            timeout: 15_000,
          },
        )
        .catch(() => {});
    }
    await route.continue();
  });
  await page.reload();
  await page.getByRole('group', { name: 'Car 101', exact: true }).waitFor();
  await connected(page);
  await page.waitForLoadState('networkidle');
  const reads = await apiReads(page);
  const { openedAt, keypadAt } = await page.evaluate<{ openedAt: number; keypadAt: number }>(
    '({ openedAt: window.liveOpenedAt, keypadAt: window.keypadAt })',
  );
  expect(openedAt).toBeLessThan(keypadAt);
  const session = reads.filter((read) => read.url === '/api/sessions/active');
  // Read before the connection opened, so read once more (a change meanwhile reached no socket)…
  expect(session).toHaveLength(2);
  // …and every read again of what was asked before the opening leaves once the keypad is shown.
  const readAgain = reads.filter(
    (read, index) =>
      read.startTime > openedAt &&
      reads.findIndex((other) => other.url === read.url) < index &&
      (reads.find((other) => other.url === read.url)?.startTime ?? 0) < openedAt,
  );
  expect(readAgain.map((read) => read.url)).toContain('/api/sessions/active');
  expect(readAgain.filter((read) => read.startTime < keypadAt).map((read) => read.url)).toEqual([]);
}, 60_000);

it('the front queue reads its lists again when its live connection comes back after a drop', async () => {
  const { page, sockets } = await openFrontQueue();
  const before = counted(await apiReads(page));
  expect(sockets.length).toBeGreaterThan(0);
  await sockets.at(-1)?.close();
  await page.locator('html:not([data-live="open"])').waitFor({ state: 'attached' });
  await connected(page);
  const queue = Object.keys(before).find((url) => url.startsWith('/api/queue?sessionId=')) ?? '';
  const again = (url: string) => async () => (counted(await apiReads(page))[url] ?? 0) - (before[url] ?? 0);
  for (const url of ['/api/sessions/active', queue]) {
    await expect.poll(again(url), { timeout: 20_000 }).toBeGreaterThan(0);
  }
}, 60_000);

it("the front queue asks its cars' children's trusted adults in one read, whatever their number (h57r)", async () => {
  const { page } = await openFrontQueue();
  const front = await signedIn(suite.server.url, 'front_demo');
  const session = (await front.get('/api/sessions/active')).body as { id: number };
  const queue = (await front.get(`/api/queue?sessionId=${session.id}`)).body as Array<{
    students: Array<{ id: number }>;
  }>;
  const children = [...new Set(queue.flatMap((entry) => entry.students.map((student) => student.id)))];
  expect(children.length).toBeGreaterThan(1);
  const reads = (await apiReads(page)).map((read) => read.url);
  expect(reads.filter((url) => /^\/api\/students\/\d+\/authorized-pickups/.test(url))).toEqual([]);
  const together = reads.filter((url) => url.startsWith('/api/authorized-pickups?'));
  expect(together).toHaveLength(1);
  const asked = new URLSearchParams((together[0] as string).split('?')[1]).get('studentIds') ?? '';
  expect(
    asked
      .split(',')
      .map(Number)
      .sort((a, b) => a - b),
  ).toEqual(children.sort((a, b) => a - b));
}, 60_000);

/** Notes when the staff shell's header was first drawn (`window.headerAt`, the page's clock). */
const NOTE_HEADER = `(() => {
  new MutationObserver((_, observer) => {
    if (!document.querySelector('header')) return;
    window.headerAt = performance.now();
    observer.disconnect();
  }).observe(document, { childList: true, subtree: true });
})();`;

it("the shell asks the header's school and district and the banner's alerts before it draws, with the running session (h57g)", async () => {
  const { page } = await suite.open('front_demo', '/front-queue', {
    viewport: viewports.phone,
    initScripts: [NOTE_HEADER],
  });
  await page.getByRole('group', { name: 'Car 101', exact: true }).waitFor();
  await page.waitForLoadState('networkidle');
  const reads = await apiReads(page);
  const headerAt = await page.evaluate<number>('window.headerAt');
  expect(headerAt).toBeGreaterThan(0);
  for (const path of ['/api/schools/', '/api/districts/', '/api/alerts']) {
    const first = reads.find((read) => read.url.startsWith(path) && !read.url.includes('?'));
    expect(first, path).toBeDefined();
    // Asked by the shell's loader once the user was known, not by the header's or the banner's first draw.
    expect(first?.startTime, path).toBeLessThan(headerAt);
  }
}, 60_000);

it('logged no errors on the screens it opened', () => {
  expect(suite.errors).toEqual([]);
});
