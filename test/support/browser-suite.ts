import type { FakeClever } from '@curbside/local';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { ensureWebBuilt, launchBrowser, viewports } from './browser';
import { startTestServer } from './server';

export type Viewport = { width: number; height: number };
export type Theme = 'light' | 'dark' | 'bright';

export interface ContextOptions {
  viewport?: Viewport;
  /** A touch screen (a phone or a tablet held in the hand). */
  touch?: boolean;
  /** The colour theme the app starts in (stored as the app stores it). */
  theme?: Theme;
  /** Scripts to run in every page of the context before the app's own. */
  initScripts?: string[];
  /** Browser permissions to grant on the server's origin (`clipboard-read`, say). */
  permissions?: string[];
  acceptDownloads?: boolean;
  locale?: string;
}

export interface OpenOptions extends ContextOptions {
  /**
   * Console errors this page is expected to log (a refused request the test makes on
   * purpose): matched against the message text. A signed-out page's `GET /api/me` 401
   * is always expected.
   */
  expectedErrors?: RegExp[];
  /** Names the page in `errors` (default: the username, or `signed out`). */
  label?: string;
}

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
 * in on its own (`signIn`). Every page's uncaught errors and console errors, but the expected
 * ones, are collected in `errors`: a file asserts it stays empty.
 */
export const browserSuite = (setup: { seed?: boolean; clever?: () => FakeClever } = {}) => {
  let server: Awaited<ReturnType<typeof startTestServer>> | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    const webDist = await ensureWebBuilt();
    const clever = setup.clever?.();
    server = await startTestServer({
      webDist,
      ...(setup.seed === false ? { seed: false } : {}),
      ...(clever ? { clever } : {}),
    });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await server?.close();
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
      ...extra,
    });
    contexts.push(context);
    if (options.theme) {
      await context.addInitScript({ content: `localStorage.setItem('curbside-theme', '${options.theme}')` });
    }
    for (const content of options.initScripts ?? []) await context.addInitScript({ content });
    if (options.permissions?.length) {
      await context.grantPermissions(options.permissions, { origin: new URL(server.url).origin });
    }
    return context;
  };

  /** Collects `page`'s uncaught errors and console errors but the expected ones. */
  const watch = (page: Page, label: string, signedOut: boolean, expected: RegExp[] = []) => {
    page.on('pageerror', (error) => errors.push(`${label}: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const text = message.text();
      // A signed-out visitor's current-user query answers 401: nobody is signed in.
      if (signedOut && /status of 401/.test(text) && /\/api\/me$/.test(message.location().url)) return;
      if (expected.some((pattern) => pattern.test(text))) return;
      errors.push(`${label}: ${text}`);
    });
  };

  /** A page at `path` in a new context, signed in as `username` (null: signed out). */
  const open = async (username: string | null, path: string, options: OpenOptions = {}) => {
    const context = await newContext(options);
    if (username) await signIn(context, username);
    const page = await context.newPage();
    watch(page, options.label ?? username ?? 'signed out', !username, options.expectedErrors);
    await page.goto(path);
    return { page, context };
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
    errors,
    newContext,
    signIn,
    watch,
    open,
  };
};
