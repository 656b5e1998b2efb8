import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { viewports } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { sessionBody } from '../support/fixtures';

/**
 * A screen's first load on a phone (issue 57): what is drawn stays where it is while the rest
 * arrives (a layout shift under Core Web Vitals' "good" 0.1: a parent or a wrangler about to tap
 * does not hit what moved there), and each page has its main landmark (a screen reader's way
 * to the content, part of Lighthouse's accessibility score).
 */
const suite = browserSuite({ reuseSignIns: true });

/** Sums the page's layout shifts (as Core Web Vitals count them: none right after an input). */
const SHIFTS = `(() => {
  window.__curbsideShift = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__curbsideShift += entry.value;
  }).observe({ type: 'layout-shift', buffered: true });
})()`;

/** A phone held in the hand, its layout shifts counted from the start. */
const onPhone = { viewport: viewports.phone, touch: true, initScripts: [SHIFTS] };

/** The page's layout shift so far, once what it loads has arrived and is drawn. */
const shifted = async (page: Page) => {
  await page.waitForLoadState('networkidle');
  await suite.painted(page);
  return page.evaluate<number>('window.__curbsideShift');
};

beforeAll(async () => {
  const front = await suite.client('front_demo');
  const session = (await front.post('/api/sessions', sessionBody())).body as { id: number };
  for (const vehicleNumber of ['101', '102', '103', '104', '105']) {
    await front.post('/api/queue', { sessionId: session.id, vehicleNumber, vehicleType: 'car' });
  }
});

describe('nothing moves while a screen loads on a phone', () => {
  it('the front queue during a session: header, keypad and queue stay put', async () => {
    const { page } = await suite.open('front_demo', '/front-queue', onPhone);
    await page.getByRole('heading', { name: 'Add Vehicle to Queue' }).waitFor();
    await page.getByText('Car 105').first().waitFor();
    expect(await shifted(page)).toBeLessThan(0.1);
  });

  it('the parent dashboard: the link form appears below the children, not before them', async () => {
    const { page } = await suite.open('parent_demo', '/parent-dashboard', onPhone);
    await page.getByRole('heading', { name: 'Link a Student' }).waitFor();
    await page.getByRole('article').first().waitFor();
    expect(await shifted(page)).toBeLessThan(0.1);
  });
});

describe('each page has one main landmark', () => {
  it('the sign-in', async () => {
    const { page } = await suite.open(null, '/', { viewport: viewports.phone });
    await page.getByRole('button', { name: 'Sign In to Demo' }).waitFor();
    await expect.poll(() => page.getByRole('main').count()).toBe(1);
  });

  it("the bus driver's page, with its link and without", async () => {
    const admin = await suite.client('admin_demo');
    const { driverUrl } = (await admin.get('/api/bus-links')).body as { driverUrl: string };
    const link = new URL(driverUrl);
    const { page } = await suite.open(null, `${link.pathname}${link.search}`, { viewport: viewports.phone });
    await page.getByRole('button', { name: 'Start Tracking' }).waitFor();
    expect(await page.getByRole('main').count()).toBe(1);
    await page.goto('/bus-driver');
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('main').count()).toBe(1);
  });
});

it('logged no errors on the screens it opened', () => {
  expect(suite.errors).toEqual([]);
});
