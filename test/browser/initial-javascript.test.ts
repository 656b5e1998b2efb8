import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSuite } from '../support/browser-suite';
import { sessionBody } from '../support/fixtures';
import { signedIn } from '../support/server';

/**
 * DESIGN.md's budget: the JavaScript a tablet downloads before the login and
 * queue screens show is under 250 KB gzip. Measured as the browser loads each
 * screen: every script it fetched, gzipped as a CDN would serve it.
 */
const INITIAL_JS_BUDGET_BYTES = 250 * 1024;

const suite = browserSuite();

/** Opens `path` (signed in as `username`, if given) and answers the gzipped bytes of every script it loaded. */
const initialScripts = async (path: string, ready: (page: Page) => Promise<unknown>, username?: string) => {
  const context = await suite.newContext();
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
  it('of the login screen stays under 250 KB gzip', async () => {
    const { count, bytes } = await initialScripts('/login', (page) =>
      page.getByRole('button', { name: 'Sign In to Demo' }).waitFor(),
    );
    expect(count).toBeGreaterThan(0);
    expect(bytes).toBeLessThan(INITIAL_JS_BUDGET_BYTES);
  });

  it('of the front queue screen stays under 250 KB gzip', async () => {
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
    expect(bytes).toBeLessThan(INITIAL_JS_BUDGET_BYTES);
  }, 60_000);
});

it('logged no errors on the screens it measured', () => {
  expect(suite.errors).toEqual([]);
});
