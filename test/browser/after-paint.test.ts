import { expect, it } from 'vitest';
import { webBundleSuite } from '../support/web-bundle';

/**
 * Issue 57: what a screen draws after its first paint (the front queue's lists and their code)
 * waits for the browser's report of that paint (its largest-contentful-paint entry, timed when the
 * frame is shown), not for the frame that draws it: a request started from that frame's own
 * callbacks leaves before the frame is on screen, counted before the paint in Lighthouse's replay.
 * A screen opened on a page's first load, before any tap or key, waits for that report; once the
 * visitor has tapped or typed the browser reports no new largest paint, and the next frame is
 * waited for (`inApp`). Here the largest paints are the test's to report (a stand-in observer).
 */
const entry = `
import { afterPaint } from './src/lib/after-paint';

window.observers = [];
const observers = window.observers;
class FakeObserver {
  constructor(callback) { this.callback = callback; observers.push(this); }
  observe() {}
  disconnect() { observers.splice(observers.indexOf(this), 1); }
  static supportedEntryTypes = ['paint', 'largest-contentful-paint', 'first-input'];
}
window.PerformanceObserver = FakeObserver;
window.reportLargestPaint = () => {
  const entries = [{ startTime: performance.now() }];
  for (const observer of [...observers]) observer.callback({ getEntries: () => entries });
};
window.ran = 0;
window.start = () => afterPaint(() => { window.ran += 1; }, { inApp: true });
window.frames = (count) => new Promise((done) => {
  const next = (left) => (left === 0 ? setTimeout(done, 0) : requestAnimationFrame(() => next(left - 1)));
  next(count);
});
`;

const suite = webBundleSuite(entry);

const openPage = async () => {
  const page = await suite.browser.newPage();
  await page.setContent('<main><h1>Curbside</h1><button>Tap</button></main>');
  await page.addScriptTag({ content: suite.script });
  // The page's first paint has been reported (the shell painted before the screen is drawn).
  await expect
    .poll(() => page.evaluate(`performance.getEntriesByType('paint').length`), { timeout: 10_000 })
    .toBeGreaterThan(0);
  return page;
};

it('on a first load, before any tap or key, runs only once the browser reports the paint', async () => {
  const page = await openPage();
  await page.evaluate('window.start()');
  await page.evaluate('window.frames(2)');
  expect(await page.evaluate('window.ran')).toBe(0);
  await page.evaluate('window.reportLargestPaint()');
  await expect.poll(() => page.evaluate('window.ran'), { timeout: 10_000 }).toBe(1);
  await page.close();
});

it('once the visitor has tapped (no largest paint is reported then), runs after the next frame', async () => {
  const page = await openPage();
  await page.getByRole('button', { name: 'Tap' }).click();
  await expect
    .poll(() => page.evaluate(`performance.getEntriesByType('first-input').length`), { timeout: 10_000 })
    .toBe(1);
  await page.evaluate('window.start()');
  await expect.poll(() => page.evaluate('window.ran'), { timeout: 10_000 }).toBe(1);
  await page.close();
});

it('on a first load whose paint is never reported (nothing larger drawn), runs all the same, in half a second', async () => {
  const page = await openPage();
  const started = (await page.evaluate('(window.start(), performance.now())')) as number;
  await page.evaluate('window.frames(3)');
  expect(await page.evaluate('window.ran')).toBe(0);
  await expect.poll(() => page.evaluate('window.ran'), { timeout: 10_000 }).toBe(1);
  // Not the 2 s a page's own first paint is waited for.
  expect((await page.evaluate('performance.now()')) as number).toBeLessThan(started + 1_900);
  await page.close();
});

it('has every caller waiting for the same paint told by one observer, each once, and a cancelled one not', async () => {
  const page = await openPage();
  await page.evaluate('window.cancel = (window.start(), window.start(), window.start(), window.start())');
  // The front queue's first draw waits for its paint in five places; the browser observes it once.
  expect(await page.evaluate('window.observers.length')).toBe(1);
  await page.evaluate('window.cancel()');
  await page.evaluate('window.reportLargestPaint()');
  await expect.poll(() => page.evaluate('window.ran'), { timeout: 10_000 }).toBe(3);
  await page.evaluate('window.reportLargestPaint()');
  await page.evaluate('window.frames(2)');
  expect(await page.evaluate('window.ran')).toBe(3);
  await page.close();
});
