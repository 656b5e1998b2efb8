import type { FakeClever } from '@curbside/local';
import type { Browser, BrowserContext, BrowserContextOptions, Cookie, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { ensureWebBuilt, launchBrowser, viewports } from './browser';
import { Client, startTestServer } from './server';

export type Viewport = { width: number; height: number };
export type Theme = 'light' | 'dark' | 'bright';

export interface ContextOptions {
  viewport?: Viewport;
  /** A touch screen (a phone or a tablet held in the hand). */
  touch?: boolean;
  /** The colour theme the app starts in (stored as the app stores it). */
  theme?: Theme;
  /**
   * The app's transitions and animations run as for anyone (off by default: a test waits on
   * what a screen shows, never for a dialog to finish fading in).
   */
  motion?: boolean;
  /** Scripts to run in every page of the context before the app's own. */
  initScripts?: string[];
  /** Browser permissions to grant on the server's origin (`clipboard-read`, say). */
  permissions?: string[];
  acceptDownloads?: boolean;
  locale?: string;
  /**
   * The app's service worker registers and caches the app shell, as on the school's site (the
   * offline tests). Off by default: a fresh context would download the whole shell again
   * while the test runs, and no other test is about it.
   */
  serviceWorkers?: boolean;
}

/**
 * A console error a page is expected to log: a pattern of its text, or of its text and the
 * address it names (`{ text: /status of 401/, url: /\/api\/login$/ }`: only that refusal).
 */
export type ExpectedError = RegExp | { text: RegExp; url: RegExp };

export interface OpenOptions extends ContextOptions {
  /**
   * Console errors this page is expected to log (a refused request the test makes on
   * purpose). A signed-out page's `GET /api/me` 401 is always expected.
   */
  expectedErrors?: ExpectedError[];
  /** Names the page in `errors` (default: the username, or `signed out`). */
  label?: string;
  /**
   * Signs this page in afresh even when the suite reuses sign-ins (`reuseSignIns`): a page
   * whose test signs out, or changes the password, must not end a session other pages use.
   */
  ownSignIn?: boolean;
  /**
   * Installs Playwright's clock in the context before the page opens (as `page.clock.install()`
   * before the first navigation): the test moves the page's timers itself.
   */
  clock?: boolean;
}

/**
 * Switches off every CSS transition and animation of a page, before the app's own scripts:
 * with the context's `reducedMotion: 'reduce'` (which the app's Mantine theme respects:
 * dialogs, menus and toasts open at once) a screen is as it ends up the moment it shows.
 */
const NO_MOTION = `(() => {
  const style = document.createElement('style');
  style.textContent = '*, *::before, *::after { transition: none !important; animation: none !important; scroll-behavior: auto !important; }';
  const add = () => (document.head ?? document.documentElement).appendChild(style);
  if (document.head) add();
  else document.addEventListener('DOMContentLoaded', add, { once: true });
})()`;

/**
 * Waits until `page`'s live connection is open (`data-live="open"` on its root element,
 * set by the app's LiveProvider): events sent from then on reach the page. Wait for the
 * screen's content first: the connection starts again once the signed-in user is known.
 */
export const connected = (page: Page, timeout = 30_000) =>
  page.locator('html[data-live="open"]').waitFor({ state: 'attached', timeout });

/**
 * Waits until `page` has drawn what it shows now (two animation frames: the layout of the
 * last change is done and painted), before a screenshot, a measure or axe. With transitions
 * off nothing moves after that.
 */
export const painted = (page: Page) =>
  // A string: this file is type-checked without the DOM library.
  page.evaluate<void>(
    'new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())))',
  );

/**
 * Answers "Complete anyway" to the question a screen asks before completing a car or a batch
 * with a child no teacher released (issue 50), once it shows.
 */
export const completeAnyway = (page: Page) =>
  page
    .getByRole('dialog', { name: 'Not released by a teacher' })
    .getByRole('button', { name: 'Complete anyway' })
    .click();

/** Where the app keeps its theme preference (`THEME_STORAGE_KEY` in the web app). */
const THEME_KEY = 'curbside-theme';

/**
 * Switches an open page to `theme` as another tab of the app would (the preference stored,
 * a `storage` event), without loading the page again, and waits until it is drawn in it.
 * A later load of the page starts again in its context's theme (`ContextOptions.theme`).
 */
export const switchTheme = async (page: Page, theme: Theme) => {
  await page.evaluate(
    // A string: this file is type-checked without the DOM library.
    `(() => {
      localStorage.setItem('${THEME_KEY}', '${theme}');
      window.dispatchEvent(new StorageEvent('storage', { key: '${THEME_KEY}' }));
    })()`,
  );
  await page.locator(`html[data-curbside-theme="${theme}"]`).waitFor({ state: 'attached' });
  await painted(page);
};

/**
 * Signs `context` in on the staff or the parent portal (default: the parent's for `parent…`).
 * Each page signs in on its own: two pages sharing one server session (a reused cookie) were
 * seen to miss live events on the teacher and front-queue screens.
 */
export const signIn = async (
  context: BrowserContext,
  username: string,
  { password = 'demo1234', portal = username.startsWith('parent') ? 'parent' : 'staff' } = {} as {
    password?: string;
    portal?: 'staff' | 'parent';
  },
) => {
  const path = portal === 'parent' ? '/api/auth/parent/login' : '/api/login';
  const login = await context.request.post(path, { data: { username, password } });
  expect(login.status(), `${username} signs in`).toBe(200);
};

/**
 * One browser suite per test file: the laptop runtime on this file's tables with the built
 * web app, one Chromium, and the contexts the tests open (closed at the end), each signed
 * in on its own (`signIn`), or, with `reuseSignIns`, once per account for the file (the
 * session cookie of the first sign-in, as Playwright's `storageState`, for every later page
 * of that account). Every page's uncaught errors and console errors, but the expected
 * ones, are collected in `errors`: a file asserts it stays empty.
 */
export const browserSuite = (
  setup: {
    /** `false`: the tables start empty (no demo data, no demo sign-in). */
    seed?: boolean;
    /** A fake Clever for sign-in and the roster import (`startFakeClever()`), closed at the end. */
    clever?: () => FakeClever | Promise<FakeClever>;
    /** The start's time limit (a fake Clever's district takes a while). */
    timeout?: number;
    /**
     * `open` signs each account in once for the file and gives its later pages that
     * session's cookie (a sign-in costs half a second of a core, a file opens dozens of
     * pages). For files whose pages do not sign out, change a password, or stay open beside
     * another page of the same account waiting for live events (each page's own session, as
     * a school's tablets have, is the default). The tests of sign-in itself sign in through
     * the form, or with `ownSignIn`.
     */
    reuseSignIns?: boolean;
    /**
     * Closes the contexts a test opened when it ends (those opened in `beforeAll` stay): a
     * page left open keeps its live connection and its polls busy on the shared CPU while
     * the later tests run.
     */
    closeAfterEach?: boolean;
    /** The app's service worker runs in every context of the file (`ContextOptions.serviceWorkers`). */
    serviceWorkers?: boolean;
  } = {},
) => {
  let server: Awaited<ReturnType<typeof startTestServer>> | undefined;
  let browser: Browser | undefined;
  let clever: FakeClever | undefined;
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];
  /** The session cookies of this file's sign-ins (`reuseSignIns`), per account. */
  const sessions = new Map<string, Cookie[]>();
  /** How many of `contexts` were open when the current test started (`closeAfterEach`). */
  let openBefore = 0;

  beforeAll(async () => {
    const webDist = await ensureWebBuilt();
    clever = await setup.clever?.();
    server = await startTestServer({
      webDist,
      ...(setup.seed === false ? { seed: false } : {}),
      ...(clever ? { clever } : {}),
    });
    browser = await launchBrowser();
  }, setup.timeout ?? 120_000);

  if (setup.closeAfterEach) {
    beforeEach(() => {
      openBefore = contexts.length;
    });
    afterEach(async () => {
      for (const context of contexts.splice(openBefore)) await context.close().catch(() => {});
    });
  }

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await server?.close();
    await clever?.close();
  });

  const started = () => {
    if (!server || !browser) throw new Error('The browser suite has not started (use it inside a test)');
    return { server, browser };
  };

  /** A new browser context on the server (closed at the end of the file). */
  const newContext = async (options: ContextOptions = {}, extra: BrowserContextOptions = {}) => {
    const { server, browser } = started();
    const context = await browser.newContext({
      viewport: options.viewport ?? viewports.tablet,
      baseURL: server.url,
      ...(options.touch ? { hasTouch: true, isMobile: true } : {}),
      ...(options.acceptDownloads ? { acceptDownloads: true } : {}),
      ...(options.locale ? { locale: options.locale } : {}),
      ...(options.motion ? {} : { reducedMotion: 'reduce' as const }),
      ...((options.serviceWorkers ?? setup.serviceWorkers) ? {} : { serviceWorkers: 'block' as const }),
      ...extra,
    });
    contexts.push(context);
    if (!options.motion) await context.addInitScript({ content: NO_MOTION });
    if (options.theme) {
      await context.addInitScript({ content: `localStorage.setItem('${THEME_KEY}', '${options.theme}')` });
    }
    for (const content of options.initScripts ?? []) await context.addInitScript({ content });
    if (options.permissions?.length) {
      await context.grantPermissions(options.permissions, { origin: new URL(server.url).origin });
    }
    return context;
  };

  /**
   * Collects `page`'s uncaught errors and console errors but the expected ones, in `errors`;
   * answers this page's own (a test may assert them right away).
   */
  const watch = (page: Page, label: string, signedOut: boolean, expected: ExpectedError[] = []) => {
    const own: string[] = [];
    const found = (error: string) => {
      own.push(error);
      errors.push(`${label}: ${error}`);
    };
    page.on('pageerror', (error) => found(error.message));
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const text = message.text();
      const { url } = message.location();
      // A signed-out visitor's current-user query answers 401: nobody is signed in.
      if (signedOut && /status of 401/.test(text) && /\/api\/me$/.test(url)) return;
      const isExpected = (pattern: ExpectedError) =>
        pattern instanceof RegExp ? pattern.test(text) : pattern.text.test(text) && pattern.url.test(url);
      if (expected.some(isExpected)) return;
      found(text);
    });
    return own;
  };

  /**
   * An API client signed in as `username`: with `reuseSignIns`, on the session this file's
   * pages of that account use (no sign-in of its own), else signed in afresh.
   */
  const client = async (username: string) => {
    const { server, browser } = started();
    if (!setup.reuseSignIns) {
      const fresh = new Client(server.url);
      await fresh.login(username);
      return fresh;
    }
    let cookies = sessions.get(username);
    if (!cookies) {
      const context = await browser.newContext({ baseURL: server.url });
      await signIn(context, username);
      cookies = await context.cookies();
      sessions.set(username, cookies);
      await context.close();
    }
    const session = cookies.find((cookie) => cookie.name === 'curbside_session');
    if (!session) throw new Error(`${username}'s sign-in set no session cookie`);
    const reused = new Client(server.url);
    reused.cookie = `${session.name}=${session.value}`;
    return reused;
  };

  /**
   * A page at `path` in a new context, signed in as `username` (null: signed out), with the
   * errors it logged (`errors` of the page; the suite's `errors` gathers every page's).
   */
  const open = async (username: string | null, path: string, options: OpenOptions = {}) => {
    const reuse = Boolean(username && setup.reuseSignIns && !options.ownSignIn);
    const cookies = reuse && username ? sessions.get(username) : undefined;
    const context = await newContext(options, cookies ? { storageState: { cookies, origins: [] } } : {});
    if (username && !cookies) {
      await signIn(context, username);
      if (reuse) sessions.set(username, await context.cookies());
    }
    if (options.clock) await context.clock.install();
    const page = await context.newPage();
    const pageErrors = watch(
      page,
      options.label ?? username ?? 'signed out',
      !username,
      options.expectedErrors,
    );
    await page.goto(path);
    return { page, context, errors: pageErrors };
  };

  return {
    get server() {
      return started().server;
    },
    get browser() {
      return started().browser;
    },
    get origin() {
      return new URL(started().server.url).origin;
    },
    /** The fake Clever of `setup.clever`. */
    get clever() {
      if (!clever) throw new Error('This browser suite has no fake Clever (setup.clever)');
      return clever;
    },
    connected,
    painted,
    errors,
    newContext,
    signIn,
    watch,
    open,
    client,
  };
};
