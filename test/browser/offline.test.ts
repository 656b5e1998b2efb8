import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuilt, launchBrowser, viewports } from '../support/browser';
import { signIn } from '../support/browser-suite';
import { sessionBody } from '../support/fixtures';
import { type Client, signedIn, startTestServer } from '../support/server';

/**
 * Issue 30 in the browser: a front-queue tablet that loses its connection
 * keeps its taps in an outbox ("Offline — 4 changes waiting") and sends
 * them, once each, when the connection is back; another screen sees exactly
 * those changes.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;
let front: Client;
let sessionId: number;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  const webDist = await ensureWebBuilt();
  server = await startTestServer({ webDist });
  browser = await launchBrowser();
  front = await signedIn(server.url, 'front_demo');
  const active = (await front.get('/api/sessions/active')).body;
  if (active) await (await signedIn(server.url, 'back_demo')).put(`/api/sessions/${active.id}/end`);
  sessionId = (await front.post('/api/sessions', sessionBody())).body.id;
}, 120_000);

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await server?.close();
});

const open = async (username: string, path: string): Promise<{ page: Page; context: BrowserContext }> => {
  const context = await browser.newContext({ viewport: viewports.tablet, baseURL: server.url });
  contexts.push(context);
  await signIn(context, username);
  const page = await context.newPage();
  await page.goto(path);
  return { page, context };
};

const numbersIn = async (status?: 'completed') =>
  (
    (await front.get(`/api/queue?sessionId=${sessionId}${status ? '&status=completed' : ''}`)).body as any[]
  ).map((entry) => entry.vehicleNumber);

describe('a front-queue tablet through a dead spot', () => {
  it('keeps three adds and a pickup while offline and sends each once when back', async () => {
    expect(
      (await front.post('/api/queue', { sessionId, vehicleNumber: '130', vehicleType: 'car' })).status,
    ).toBe(201);
    const tablet = await open('front_demo', '/front-queue');
    const other = await open('back_demo', '/front-queue');
    const card = tablet.page.getByRole('group', { name: 'Car 130', exact: true });
    await card.waitFor({ timeout: 20_000 });

    await tablet.context.setOffline(true);
    for (const number of ['131', '132', '133']) {
      await tablet.page.getByLabel('Vehicle Number').fill(number);
      await tablet.page.getByRole('button', { name: 'Add to Queue' }).click();
      await expect
        .poll(() => tablet.page.getByLabel('Vehicle Number').inputValue(), { timeout: 10_000 })
        .toBe('');
    }
    await card.click();
    await tablet.page.getByRole('dialog').getByRole('button', { name: 'Complete Pickup' }).click();
    await tablet.page.getByText('Offline — 4 changes waiting').waitFor({ timeout: 10_000 });
    // Nothing reached the server.
    expect(await numbersIn()).toEqual(['130']);

    await tablet.context.setOffline(false);
    await expect.poll(() => numbersIn(), { timeout: 15_000 }).toEqual(['131', '132', '133']);
    expect(await numbersIn('completed')).toEqual(['130']);
    for (const number of ['131', '132', '133']) {
      await other.page
        .getByRole('group', { name: `Car ${number}`, exact: true })
        .waitFor({ timeout: 15_000 });
    }
    await other.page
      .getByRole('group', { name: 'Car 130', exact: true })
      .waitFor({ state: 'detached', timeout: 15_000 });
    await tablet.page.getByText(/changes? waiting/).waitFor({ state: 'detached', timeout: 15_000 });
  }, 120_000);
});
