import { describe, expect, it } from 'vitest';
import { viewports } from '../support/browser';
import { browserSuite } from '../support/browser-suite';

describe('an unknown address', () => {
  // The app with no demo data: the not-found page needs none.
  const suite = browserSuite({ seed: false });

  for (const [name, viewport] of Object.entries(viewports)) {
    it(`shows the not-found page on a ${name}`, async () => {
      const { page, errors } = await suite.open(null, '/no-such-page', { viewport });

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
      await page.context().close();
    });
  }
});
