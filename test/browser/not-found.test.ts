import { type RunningServer, startServer } from '@curbside/local';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuilt, launchBrowser, viewports } from '../support/browser';

describe('an unknown address', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    const webDist = await ensureWebBuilt();
    server = await startServer({
      port: 0,
      tableName: process.env.TABLE_NAME!,
      dynamoEndpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB!,
      webDist,
    });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const open = async (path: string, viewport: { width: number; height: number }) => {
    const page: Page = await browser.newPage({ viewport });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      // A signed-out visitor's current-user query answers 401: that means "nobody signed in".
      if (/status of 401/.test(message.text()) && /\/api\/me$/.test(message.location().url)) return;
      errors.push(message.text());
    });
    await page.goto(new URL(path, server.url).href);
    return { page, errors };
  };

  for (const [name, viewport] of Object.entries(viewports)) {
    it(`shows the not-found page on a ${name}`, async () => {
      const { page, errors } = await open('/no-such-page', viewport);

      const heading = page.getByRole('heading', { name: '404 Page Not Found', exact: true });
      await heading.waitFor({ state: 'visible' });
      await page.getByText('Did you forget to add the page to the router?', { exact: true }).waitFor();

      const box = await heading.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
        viewport.width,
      );
      // A way home: the home page sends a signed-out visitor to the login screen.
      await page.getByRole('link', { name: 'Go to the home page' }).click();
      await page.getByRole('button', { name: 'Sign In to Demo', exact: true }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/');
      expect(errors).toEqual([]);
      await page.close();
    });
  }
});
