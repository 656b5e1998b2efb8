import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { viewports } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { sessionBody } from '../support/fixtures';

/**
 * Issue 57 (ADR 0026): a phone's first screen does not wait for the entry to run before asking
 * for its own code and its first reads. The page's first script (web/route-preload.ts) hints the
 * screen's chunks and starts its reads; the app takes those answers instead of asking again.
 */
const suite = browserSuite();

const REQUEST_ID = 'x-request-id';

/**
 * Opens `path`, waits for `ready`, and answers what the page asked for and what it was hinted. The
 * entry is held until `screen` (a path) has been asked for, and `read` (a path and query) too.
 */
const opened = async (
  path: string,
  screen: RegExp,
  ready: (page: Page) => Promise<unknown>,
  username?: string,
  read?: RegExp,
) => {
  const context = await suite.newContext({ viewport: viewports.phone, touch: true });
  if (username) await suite.signIn(context, username);
  const page = await context.newPage();
  suite.watch(page, username ?? 'signed out', !username);
  const requests: Request[] = [];
  page.on('request', (sent) => requests.push(sent));
  // The entry is held until the screen's own chunk has been asked for (at most 15 s): only a
  // page that asks for it before the entry runs gets it meanwhile.
  let screenAskedFirst = false;
  const asked = (wanted: RegExp, of: (url: URL) => string) =>
    new Promise<boolean>((resolve) => {
      page.on('request', (sent) => {
        if (wanted.test(of(new URL(sent.url())))) resolve(true);
      });
      setTimeout(() => resolve(false), 15_000);
    });
  const screenAsked = Promise.all([
    asked(screen, (url) => url.pathname),
    read ? asked(read, (url) => `${url.pathname}${url.search}`) : true,
  ]).then((both) => both.every(Boolean));
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    screenAskedFirst = await screenAsked;
    await route.continue();
  });
  await page.goto(path);
  await ready(page);
  const drawn = requests.length;
  await page.waitForLoadState('networkidle');
  const hinted = (
    await page
      .locator('link[rel="modulepreload"], link[rel="preload"]')
      .evaluateAll((links) => links.map((link) => (link as unknown as { href: string }).href))
  ).map((href) => new URL(href, page.url()).pathname);
  const early = await page.evaluate(() =>
    Object.entries((globalThis as { curbsideEarly?: Record<string, unknown> }).curbsideEarly ?? {}).map(
      ([url, answer]) => ({ url, taken: answer === null }),
    ),
  );
  await context.close();
  const reads = (all: Request[], url: string) =>
    all.filter(
      (sent) =>
        sent.method() === 'GET' && `${new URL(sent.url()).pathname}${new URL(sent.url()).search}` === url,
    );
  return { requests, untilDrawn: requests.slice(0, drawn), hinted, early, reads, screenAskedFirst };
};

/** The scripts of the build a page asked for, but the entry and what index.html names itself. */
const screenScripts = (requests: Request[]) =>
  requests
    .filter((sent) => sent.resourceType() === 'script')
    .map((sent) => new URL(sent.url()).pathname)
    .filter((path) => path.startsWith('/assets/') && !/\/(index|rolldown-runtime|route-preload)-/.test(path));

describe("a phone's first screen", () => {
  it("the parent dashboard's chunks are hinted and its first reads made once, before the app runs", async () => {
    const { requests, untilDrawn, hinted, early, reads, screenAskedFirst } = await opened(
      '/parent-dashboard',
      /\/parent-dashboard\.page-[\w-]+\.js$/,
      (page) => page.getByRole('heading', { name: 'Link a Student' }).waitFor({ timeout: 30_000 }),
      'parent_demo',
      /^\/api\/parent\/ways-home$/,
    );
    // The screen's code was asked for before the entry ran, and every script of the screen that
    // the page loaded before it drew was hinted.
    expect(screenAskedFirst).toBe(true);
    const scripts = screenScripts(untilDrawn);
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((path) => !hinted.includes(path))).toEqual([]);
    // Its first reads left from the early script (without a request reference: the app sends one
    // with each of its calls), and the app took every answer the script had asked for. Who is
    // signed in is asked once; the others are read again once the live connection opens.
    const firstReads = [
      '/api/me',
      '/api/parent/students/status',
      '/api/parent/students',
      '/api/parent/ways-home',
    ];
    // (The app marks each URL it asks for in the page's first seconds, so the script reads none late.)
    expect(firstReads.filter((url) => !early.some((read) => read.url === url))).toEqual([]);
    expect(early.filter(({ taken }) => !taken)).toEqual([]);
    const me = reads(untilDrawn, '/api/me');
    expect(me.length).toBe(1);
    expect(me[0]?.headers()[REQUEST_ID]).toBeUndefined();
    for (const url of firstReads) {
      const fromScript = reads(untilDrawn, url).filter((sent) => sent.headers()[REQUEST_ID] === undefined);
      expect(fromScript.length, url).toBeLessThanOrEqual(1);
    }
    // The school's changes (the change forms' lists, below a phone's first screen) are not read
    // by the script: the app reads them once the page has been painted (h57k). The app's own
    // read (it may be marked in the script's list when it comes in the first seconds) carries a
    // request reference; the script's would not.
    const changesFromScript = requests.filter(
      (sent) =>
        new URL(sent.url()).pathname === '/api/dismissal-changes' && sent.headers()[REQUEST_ID] === undefined,
    );
    expect(changesFromScript.map((sent) => sent.url())).toEqual([]);
  });

  it("the driver page's buses and school phone leave with its link before the app runs, once", async () => {
    const admin = await suite.client('admin_demo');
    const { driverUrl } = (await admin.get('/api/bus-links')).body as { driverUrl: string };
    const driver = new URL(driverUrl);
    const token = driver.searchParams.get('t') as string;
    const { untilDrawn, early, reads, screenAskedFirst } = await opened(
      `${driver.pathname}${driver.search}`,
      /\/bus-driver\.page-[\w-]+\.js$/,
      (page) => page.getByRole('textbox', { name: 'Select Bus' }).waitFor({ timeout: 30_000 }),
    );
    expect(screenAskedFirst).toBe(true);
    for (const url of ['/api/buses', '/api/buses/contact']) {
      const made = reads(untilDrawn, url);
      expect(made.length, url).toBe(1);
      expect(made[0]?.headers()[REQUEST_ID], url).toBeUndefined();
      expect(made[0]?.headers().authorization, url).toBe(`Bearer ${token}`);
      expect(early.find((read) => read.url === `${url} Bearer ${token}`)?.taken, url).toBe(true);
    }
  });

  it("the front queue's running session leaves from the early script, once", async () => {
    const front = await suite.client('front_demo');
    expect((await front.post('/api/sessions', sessionBody())).status).toBe(201);
    const { untilDrawn, early, reads, screenAskedFirst } = await opened(
      '/front-queue',
      // The page with what it alone of the car line uses (h57c): `front-queue-<hash>.js`.
      /\/front-queue-[\w-]+\.js$/,
      (page) => page.getByRole('heading', { name: 'Add Vehicle to Queue' }).waitFor({ timeout: 30_000 }),
      'front_demo',
      /^\/api\/sessions\/active$/,
    );
    // Asked before the entry ran (it is held until then), once, and taken by the app: the app did not
    // ask for it before its live connection opened (which reads it again, with a request reference).
    expect(screenAskedFirst).toBe(true);
    const made = reads(untilDrawn, '/api/sessions/active');
    expect(made.filter((sent) => sent.headers()[REQUEST_ID] === undefined).length).toBe(1);
    expect(made.length).toBeLessThanOrEqual(2);
    expect(early.find((read) => read.url === '/api/sessions/active')?.taken).toBe(true);
  }, 60_000);

  it("the front queue's running session leaves with who is signed in, before its answer (h57w)", async () => {
    const front = await suite.client('front_demo');
    expect([201, 409]).toContain((await front.post('/api/sessions', sessionBody())).status);
    const context = await suite.newContext({ viewport: viewports.tablet });
    await suite.signIn(context, 'front_demo');
    const page = await context.newPage();
    suite.watch(page, 'front_demo', false);
    // Who is signed in is answered only once the running session has been asked for (at most 15 s):
    // a page that waits for that answer to ask for the session waits the whole 15 s.
    const sessionAsked = new Promise<boolean>((resolve) => {
      page.on('request', (sent) => {
        if (new URL(sent.url()).pathname === '/api/sessions/active') resolve(true);
      });
      setTimeout(() => resolve(false), 15_000);
    });
    let askedBeforeMe: boolean | undefined;
    await page.route(/\/api\/me$/, async (route) => {
      askedBeforeMe ??= await sessionAsked;
      await route.continue();
    });
    const requests: Request[] = [];
    page.on('request', (sent) => requests.push(sent));
    await page.goto('/front-queue');
    await page.getByRole('heading', { name: 'Add Vehicle to Queue' }).waitFor({ timeout: 30_000 });
    const early = await page.evaluate(
      () =>
        (globalThis as { curbsideEarly?: Record<string, unknown> }).curbsideEarly?.['/api/sessions/active'],
    );
    await context.close();
    expect(askedBeforeMe).toBe(true);
    // Asked once before the keypad by the early script (no request reference), and taken by the app.
    const sessionReads = requests.filter((sent) => new URL(sent.url()).pathname === '/api/sessions/active');
    expect(sessionReads.filter((sent) => sent.headers()[REQUEST_ID] === undefined)).toHaveLength(1);
    expect(early).toBeNull();
  }, 60_000);

  it("the front queue's header and banner reads leave from the early script with the session's, once", async () => {
    const front = await suite.client('front_demo');
    // Running already when the test before this one started it.
    expect([201, 409]).toContain((await front.post('/api/sessions', sessionBody())).status);
    const me = (await front.get('/api/me')).body as { schoolId: number; districtId: number };
    const shellReads = [`/api/schools/${me.schoolId}`, `/api/districts/${me.districtId}`, '/api/alerts'];
    // The entry is held until the last of them has been asked for: only the early script asks
    // before the entry has run (h57q: the app's loader asked them once the entry and the shell's
    // chunk had run, a round trip after the entry on the keypad's paint).
    const { untilDrawn, early, reads, screenAskedFirst } = await opened(
      '/front-queue',
      /\/front-queue-[\w-]+\.js$/,
      (page) => page.getByRole('heading', { name: 'Add Vehicle to Queue' }).waitFor({ timeout: 30_000 }),
      'front_demo',
      /^\/api\/alerts$/,
    );
    expect(screenAskedFirst).toBe(true);
    for (const url of shellReads) {
      const made = reads(untilDrawn, url);
      expect(made.filter((sent) => sent.headers()[REQUEST_ID] === undefined).length, url).toBe(1);
      expect(early.find((read) => read.url === url)?.taken, url).toBe(true);
    }
  }, 60_000);

  it('signed out, the dashboard reads nothing of a parent: the sign-in opens', async () => {
    const { requests, reads } = await opened('/parent-dashboard', /\/parent-dashboard\.page-/, (page) =>
      page.waitForURL((url) => !url.pathname.startsWith('/parent-dashboard'), { timeout: 30_000 }),
    );
    expect(reads(requests, '/api/me').length).toBeGreaterThan(0);
    expect(requests.filter((sent) => new URL(sent.url()).pathname.startsWith('/api/parent/'))).toEqual([]);
  });

  it('the parent sign-in asks who is signed in and whether this is the demo once', async () => {
    const { untilDrawn, hinted, reads, screenAskedFirst } = await opened(
      '/parent-login',
      /\/parent-login\.page-[\w-]+\.js$/,
      (page) => page.getByText('Username parent_demo').waitFor({ timeout: 30_000 }),
    );
    expect(screenAskedFirst).toBe(true);
    expect(screenScripts(untilDrawn).filter((path) => !hinted.includes(path))).toEqual([]);
    for (const url of ['/api/me', '/api/health']) {
      const made = reads(untilDrawn, url);
      expect(made.length, url).toBe(1);
      expect(made[0]?.headers()[REQUEST_ID], url).toBeUndefined();
    }
  });

  it('logged no errors', () => {
    expect(suite.errors).toEqual([]);
  });
});
