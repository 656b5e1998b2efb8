import { beforeAll, expect, it } from 'vitest';
import { devToolsHook, holdRequests, viewports } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { queueCar } from '../support/car-line';
import { sessionBody } from '../support/fixtures';
import { signedIn } from '../support/server';

/**
 * Issue 57 (h57a): the front queue's lists beside the keypad draw their answers in transitions.
 * An answer read through TanStack Query reaches its reader through `useSyncExternalStore`, which
 * React draws synchronously: the reader and all it draws, in one task, at a phone's CPU one of the
 * long tasks after the keypad's paint. The alert panel and the recent pickups draw their answers
 * deferred (`useDeferredValue`, a memoised body): the synchronous pass draws their reader only,
 * and their Mantine components are drawn in React's scheduler's tasks, where a transition is
 * rendered in slices.
 */
const suite = browserSuite();
let sessionId: number;

beforeAll(async () => {
  const front = await signedIn(suite.server.url, 'front_demo');
  sessionId = (await front.post('/api/sessions', sessionBody())).body.id;
  // Car 131 carries no child: completed without a teacher's release.
  for (const number of ['101', '102', '131']) await queueCar(front, sessionId, number);
  const done = ((await front.get(`/api/queue?sessionId=${sessionId}`)).body as any[]).find(
    (entry) => entry.vehicleNumber === '131',
  );
  expect((await front.put(`/api/queue/${done.id}/status`, { status: 'completed' })).status).toBe(200);
  const alert = await front.post('/api/alerts', { sessionId, type: 'help', location: 'Front Queue' });
  expect(alert.status).toBe(200);
});

/**
 * Records, once `window.__curbsideCounting` is set, each Mantine component (its `displayName`)
 * drawn inside the alert panel or the recent pickups at each commit (a fiber new or with React's
 * `PerformedWork` flag; a subtree React did not visit skipped), and whether the commit came in a
 * task of React's scheduler (its `MessageChannel`) or outside one: a synchronous draw, as React
 * does for a `useSyncExternalStore` answer (in the microtask after TanStack Query's notification).
 */
const DRAWS = `(() => {
  window.__curbsideDraws = [];
  window.__curbsideInScheduler = false;
  const Native = window.MessageChannel;
  const setOnMessage = Object.getOwnPropertyDescriptor(MessagePort.prototype, 'onmessage').set;
  window.MessageChannel = class extends Native {
    constructor() {
      super();
      const port = this.port1;
      Object.defineProperty(port, 'onmessage', {
        configurable: true,
        set(handler) {
          setOnMessage.call(port, (event) => {
            window.__curbsideInScheduler = true;
            try { return handler(event); } finally { window.__curbsideInScheduler = false; }
          });
        },
      });
    }
  };
  const hostOf = (fiber) => {
    for (let f = fiber; f; f = f.child) if (f.stateNode instanceof Element) return f.stateNode;
    return null;
  };
  const listOf = (element) => {
    if (!element) return null;
    if (element.closest('section[aria-label="Alerts: Front Queue"]')) return 'alerts';
    const card = element.closest('[class*="Card-root"]');
    if (card?.querySelector('h2')?.textContent === 'Recent Pickups') return 'pickups';
    return null;
  };
  const visit = (fiber, inScheduler) => {
    for (let f = fiber; f; f = f.sibling) {
      const before = f.alternate;
      const name = f.type?.displayName;
      if (typeof name === 'string' && name.startsWith('@mantine/core/') && (before === null || (f.flags & 1) !== 0)) {
        const list = listOf(hostOf(f));
        if (list) window.__curbsideDraws.push({ list, name, inScheduler });
      }
      if (f.child && (before === null || f.child !== before.child)) visit(f.child, inScheduler);
    }
  };
  ${devToolsHook('if (window.__curbsideCounting) visit(root.current, window.__curbsideInScheduler);')}
})()`;

it('draws the alerts’ and the recent pickups’ answers in transitions, not synchronously, and shows them', async () => {
  const { page } = await suite.open('front_demo', '/front-queue', {
    viewport: viewports.tablet,
    initScripts: [DRAWS],
  });
  // The two answers held until their lists are drawn waiting for them.
  const answer = await holdRequests(page, '**/api/alerts?*', '**/api/queue?*status=completed*');
  await page.reload();
  const panel = page.getByRole('region', { name: 'Alerts: Front Queue' });
  await panel.waitFor({ timeout: 30_000 });
  await page.getByRole('heading', { name: 'Recent Pickups' }).waitFor({ timeout: 30_000 });
  await page.getByRole('group', { name: 'Car 102', exact: true }).waitFor({ timeout: 30_000 });
  await page.evaluate('window.__curbsideCounting = true');
  answer();

  // The screen shows the answers as before.
  await panel.getByText('1 active alert at the top of the screen').waitFor({ timeout: 30_000 });
  await page.getByRole('table').getByRole('cell', { name: '131', exact: true }).waitFor({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  const draws = (await page.evaluate('window.__curbsideDraws')) as Array<{
    list: string;
    name: string;
    inScheduler: boolean;
  }>;
  // None of their components drawn synchronously; each list drawn in React's scheduler's tasks.
  expect(draws.filter((draw) => !draw.inScheduler).map((draw) => `${draw.list} ${draw.name}`)).toEqual([]);
  for (const list of ['alerts', 'pickups']) {
    expect(draws.filter((draw) => draw.list === list).length, list).toBeGreaterThan(0);
  }
}, 60_000);

it('logged no errors on the screens it opened', () => {
  expect(suite.errors).toEqual([]);
});
