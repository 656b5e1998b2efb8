import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { webDist } from '../support/browser';
import { browserSuite } from '../support/browser-suite';

/**
 * The web app works under its strict Content-Security-Policy: no inline
 * script, nothing the policy refuses on the way from sign-in to the queue.
 */
const suite = browserSuite();

describe('the built web app', () => {
  it('has no inline script in its page', () => {
    const html = readFileSync(join(webDist, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc="\/assets\//);
      expect(body?.trim()).toBe('');
    }
    expect(html).not.toMatch(/\son[a-z]+=/i);
  });

  it('signs in and shows the front queue with nothing refused by the policy', async () => {
    // The app as it is (nothing added to the page: no stylesheet switching the transitions off).
    const context = await suite.newContext({ motion: true });
    try {
      const page = await context.newPage();
      const errors = suite.watch(page, 'front_demo', true);
      const refused: string[] = [];
      await page.exposeFunction('reportViolation', (text: string) => refused.push(text));
      await page.addInitScript(
        "document.addEventListener('securitypolicyviolation', (e) => window.reportViolation(e.violatedDirective + ' ' + e.blockedURI));",
      );
      page.on('console', (message) => {
        if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
      });
      const response = await page.goto('/login');
      expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self'/);
      await page.getByLabel('Username', { exact: true }).fill('front_demo');
      await page.getByLabel('Password', { exact: true }).fill('demo1234');
      await page.getByRole('button', { name: 'Sign In to Demo', exact: true }).click();
      await page.waitForURL('**/front-queue');
      await expect.poll(() => page.getByText('No Active Session').count()).toBeGreaterThan(0);
      expect(refused).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
