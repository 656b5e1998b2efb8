import { startFakeClever } from '@curbside/local';
import { cleverLinks } from '@curbside/store';
import { beforeAll, describe, expect, it } from 'vitest';
import { shotsDir } from '../support/browser';
import { browserSuite } from '../support/browser-suite';

/**
 * Production sign-in in a browser, through the fake Clever the laptop runtime
 * starts: the login screen's single sign-on button, Clever's authorize page,
 * and back, signed in as the staff account with that email in the district
 * connected to the Clever district.
 */
const suite = browserSuite({
  clever: () => startFakeClever({ district: { schools: 1, studentsPerSchool: 20 } }),
  timeout: 180_000,
});

beforeAll(async () => {
  // The demo district is connected to the Clever district (as its district import does).
  await cleverLinks.linkDistrict(suite.server.db, 1, suite.clever.districtId);
});

describe('single sign-on through Clever', () => {
  it('signs a teacher in from the login screen through Clever’s authorize page', async () => {
    const { page, context } = await suite.open(null, '/login');
    try {
      await page.getByRole('button', { name: '← Back to login options' }).click();
      await page.getByRole('button', { name: 'Continue with Single Sign-On' }).click();
      await page
        .getByRole('heading', { name: 'Sign in with Clever (test server)' })
        .waitFor({ timeout: 30_000 });
      expect(new URL(page.url()).origin).toBe(suite.clever.url);
      await page.screenshot({ path: `${shotsDir()}/clever-authorize-tablet.png` });
      await page.getByRole('link', { name: 'Taylor Teacher' }).click();
      await page.waitForURL(/\/teacher$/, { timeout: 30_000 });
      await page.getByText('Taylor Teacher').first().waitFor({ timeout: 30_000 });
      const me = await page.evaluate(
        async () => (await (await fetch('/api/me')).json()) as { username: string },
      );
      expect(me.username).toBe('teacher_demo');
      expect(suite.errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
