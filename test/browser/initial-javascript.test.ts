import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSuite } from '../support/browser-suite';
import { sessionBody } from '../support/fixtures';
import { signedIn } from '../support/server';

/**
 * The JavaScript a screen downloads until it has shown and gone quiet, gzipped as a CDN would
 * serve it (KB: 1,024 bytes). DESIGN.md's budget was 250 KB for the login and queue screens;
 * issue 57 tightened it to what each audience's own code reaches (ADR 0026), below what each
 * screen loaded before: the staff sign-in 180.3 KB (186.5 before), the front queue 223.2 KB
 * (227.6 before), the parent sign-in 160.0 KB (185.0 before).
 */
const BUDGET = {
  // 152.0 KB with the first screen's early script (web/route-preload.ts, 1.8 KB gzip), 29 November 2026.
  login: 153 * 1024,
  // 227 KB on issue 57's branch; issue 53's Arriving list and Scan, issue 52's not-coming question: 230.6 KB;
  // the first screen's early script (1.8 KB), the forms' field errors in a chunk of their own: 232.6 KB.
  frontQueue: 233 * 1024,
  // 156.9 KB with the early script; 158.2 KB with TanStack Query's timeouts on one browser timer
  // (web/src/lib/one-timer.ts, in the query client every audience loads), 30 November 2026.
  parentLogin: 159 * 1024,
};

const suite = browserSuite();

/**
 * The staff tablets fetch the toasts' container once the screen has loaded and the browser is
 * idle (ADR 0026): not part of the first screen. Whether it fell inside the measure was timing
 * (issue 57: a screen drawn in slices leaves the browser idle sooner), so no idle time is given.
 */
const NO_IDLE_FETCH = 'window.requestIdleCallback = () => 0;';

/** Opens `path` (signed in as `username`, if given) and answers the gzipped bytes of every script it loaded. */
const initialScripts = async (path: string, ready: (page: Page) => Promise<unknown>, username?: string) => {
  const context = await suite.newContext({ initScripts: [NO_IDLE_FETCH] });
  if (username) await suite.signIn(context, username);
  const page = await context.newPage();
  suite.watch(page, username ?? 'signed out', !username);
  const scripts: Array<Promise<{ url: string; gzipped: number }>> = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    scripts.push(response.body().then((body) => ({ url: response.url(), gzipped: gzipSync(body).length })));
  });
  await page.goto(path);
  await ready(page);
  await page.waitForLoadState('networkidle');
  const loaded = await Promise.all(scripts);
  await context.close();
  return { count: loaded.length, bytes: loaded.reduce((sum, script) => sum + script.gzipped, 0) };
};

describe('initial JavaScript', () => {
  it('of the login screen stays under 153 KB gzip', async () => {
    const { count, bytes } = await initialScripts('/login', (page) =>
      page.getByRole('button', { name: 'Sign In to Demo' }).waitFor(),
    );
    expect(count).toBeGreaterThan(0);
    expect(bytes).toBeLessThan(BUDGET.login);
  });

  it('of the parent sign-in stays under 159 KB gzip', async () => {
    const { count, bytes } = await initialScripts('/parent-login', (page) =>
      page.getByRole('heading', { name: 'Parent Sign In' }).waitFor(),
    );
    expect(count).toBeGreaterThan(0);
    expect(bytes).toBeLessThan(BUDGET.parentLogin);
  });

  it('of the front queue screen stays under 233 KB gzip', async () => {
    const front = await signedIn(suite.server.url, 'front_demo');
    expect((await front.post('/api/sessions', sessionBody())).status).toBe(201);
    const { count, bytes } = await initialScripts(
      '/front-queue',
      async (page) => {
        await page.getByRole('heading', { name: 'Add Vehicle to Queue' }).waitFor();
        await page.getByRole('heading', { name: 'Cars in Parking Lot' }).waitFor();
      },
      'front_demo',
    );
    expect(count).toBeGreaterThan(0);
    expect(bytes).toBeLessThan(BUDGET.frontQueue);
  }, 60_000);
});

it('logged no errors on the screens it measured', () => {
  expect(suite.errors).toEqual([]);
});
