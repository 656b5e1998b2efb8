import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectAccessible, viewports } from '../support/browser';
import { browserSuite, painted } from '../support/browser-suite';
import { sessionBody } from '../support/fixtures';

/**
 * Issue 55: a failed call's toast names its request ("Reference: 7KQ2-M9XD-3FHA"), the id
 * the web client sent as `X-Request-Id` and the server's log line of that request carries,
 * so a school can quote it and IT find the request.
 */
const lines: string[] = [];
// Logging on for this file, before the handlers read their configuration (the server starts in beforeAll).
process.env.LOG_LEVEL = 'info';
process.env.LOG_FORMAT = 'json';
const keep = (...args: unknown[]) => {
  lines.push(args.map(String).join(' '));
};
vi.spyOn(console, 'log').mockImplementation(keep);
vi.spyOn(console, 'error').mockImplementation(keep);
afterAll(() => {
  vi.restoreAllMocks();
  process.env.LOG_LEVEL = 'silent';
});

describe('an error toast', () => {
  const suite = browserSuite();
  beforeAll(async () => {
    const front = await suite.client('front_demo');
    expect((await front.post('/api/sessions', sessionBody())).status).toBe(201);
  });

  for (const [name, viewport, car] of [
    ['tablet', viewports.tablet, '131'],
    ['phone', viewports.phone, '132'],
  ] as const) {
    it(`names the request's reference, which the server's log line of it carries (${name})`, async () => {
      const { page } = await suite.open('front_demo', '/front-queue', {
        viewport,
        expectedErrors: [{ text: /status of 409/, url: /\/api\/queue$/ }],
      });
      const number = page.getByLabel('Vehicle Number');
      await number.waitFor();
      // A car queued twice: the second add is refused (409) with the server's message.
      for (let i = 0; i < 2; i++) {
        await number.fill(car);
        await page.getByRole('button', { name: 'Add to Queue' }).click();
        if (i === 0) await expect.poll(() => number.inputValue()).toBe('');
      }
      const toast = page.locator('.mantine-Notification-root').filter({ hasText: 'Failed to add vehicle' });
      await toast.waitFor();
      await expect.poll(async () => ((await toast.textContent()) ?? '').includes('Reference: ')).toBe(true);
      const reference = /Reference: ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})/.exec(
        (await toast.textContent()) ?? '',
      )?.[1];
      expect(reference).toBeDefined();
      await painted(page);
      await page.screenshot({ path: `.test-results/request-reference-${name}.png` });
      await expectAccessible(page);

      const logged = lines
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((line) => line.request_id === reference && line.message === 'request');
      expect(logged).toMatchObject({ route: 'POST /api/queue', status: 409 });
      expect(logged?.user_id).toEqual(expect.any(Number));
      expect(logged?.school_id).toEqual(expect.any(Number));
      await page.context().close();
    }, 60_000);
  }
});
