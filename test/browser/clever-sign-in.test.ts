import { type FakeClever, startFakeClever } from '@curbside/local';
import { cleverLinks } from '@curbside/store';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuilt, launchBrowser, shotsDir, viewports } from '../support/browser';
import { startTestServer } from '../support/server';

/**
 * Production sign-in in a browser, through the fake Clever the laptop runtime
 * starts: the login screen's single sign-on button, Clever's authorize page,
 * and back, signed in as the staff account with that email in the district
 * connected to the Clever district.
 */
let clever: FakeClever;
let server: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;

beforeAll(async () => {
  const webDist = await ensureWebBuilt();
  clever = await startFakeClever({ district: { schools: 1, studentsPerSchool: 20 } });
  server = await startTestServer({ webDist, clever });
  // The demo district is connected to the Clever district (as its district import does).
  await cleverLinks.linkDistrict(server.db, 1, clever.districtId);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await clever?.close();
});

describe('single sign-on through Clever', () => {
  it('signs a teacher in from the login screen through Clever’s authorize page', async () => {
    const context = await browser.newContext({ viewport: viewports.tablet, baseURL: server.url });
    const page = await context.newPage();
    try {
      await page.goto('/login');
      await page.getByRole('button', { name: '← Back to login options' }).click();
      await page.getByRole('button', { name: 'Continue with Single Sign-On' }).click();
      await page
        .getByRole('heading', { name: 'Sign in with Clever (test server)' })
        .waitFor({ timeout: 30_000 });
      expect(new URL(page.url()).origin).toBe(clever.url);
      await page.screenshot({ path: `${shotsDir()}/clever-authorize-tablet.png` });
      await page.getByRole('link', { name: 'Taylor Teacher' }).click();
      await page.waitForURL(/\/teacher$/, { timeout: 30_000 });
      await page.getByText('Taylor Teacher').first().waitFor({ timeout: 30_000 });
      const me = await page.evaluate(
        async () => (await (await fetch('/api/me')).json()) as { username: string },
      );
      expect(me.username).toBe('teacher_demo');
    } finally {
      await context.close();
    }
  });
});
