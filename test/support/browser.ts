import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { sleep } from '@curbside/domain';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Debian's headless shell (`apt-get install -y chromium-headless-shell`: the same Blink and V8
 * as Chromium, without the browser's windowing layer) where it is installed, else Chromium
 * itself. The shell draws the same pages with about 40% less CPU (measured on one browser
 * file: 52.9 → 32.8 CPU seconds), which on a 2-core CI machine is the suite's time.
 */
const CHROMIUM =
  process.env.CHROMIUM_PATH ??
  ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) => existsSync(path)) ??
  '/usr/bin/chromium';

/** The Chromium the browser tests drive (a test that needs its own launch flags, the fake camera's). */
export const chromiumPath = () => CHROMIUM;

const webDir = fileURLToPath(new URL('../../web', import.meta.url));

/** The built web app that the laptop runtime serves in browser tests. */
export const webDist = join(webDir, 'dist');

/** Phone and tablet screens the app must work on. */
export const viewports = {
  tablet: { width: 1024, height: 768 },
  phone: { width: 390, height: 844 },
} as const;

/** The map's tile server (see web/src/features/buses/bus-map.tsx). */
const MAP_TILES = 'https://tile.openstreetmap.org/**';
/** A 1×1 transparent PNG. */
const BLANK_TILE = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAAC0lEQVR4nGNgAAIAAAUAAXpeqz8AAAAASUVORK5CYII=',
  'base64',
);

/** Where the browser tests write their screenshots (`SHOTS_DIR`, else the system's temp folder), made if missing. */
/**
 * An init script that records (`window.keypadAt`, the page's clock) when the front queue's keypad
 * first comes into the document: its heading is the screen's largest paint, in the same frame.
 */
export const MARK_KEYPAD = `new MutationObserver((_, observer) => {
  const drawn = [...document.querySelectorAll('h2, h3')].some((heading) => heading.textContent === 'Add Vehicle to Queue');
  if (!drawn) return;
  window.keypadAt = performance.now();
  observer.disconnect();
}).observe(document, { childList: true, subtree: true });`;

export const shotsDir = () => {
  const dir = process.env.SHOTS_DIR ?? join(tmpdir(), 'curbside-shots');
  mkdirSync(dir, { recursive: true });
  return dir;
};

/**
 * Chromium from the system (its headless shell where installed), headless, with
 * everything that would reach the network switched off. There is no network
 * here: every context answers the map's tile requests with a blank tile (as
 * a tile server with nothing to show would), so pages with a map log no
 * failed loads and wait on no name lookup.
 */
export const launchBrowser = async (): Promise<Browser> => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Browser tests need Chromium at ${CHROMIUM}. Install it with \`apt-get install -y chromium-headless-shell\` ` +
        '(or point CHROMIUM_PATH at another Chromium binary).',
    );
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await context.route(MAP_TILES, (route) =>
      route.fulfill({ status: 200, contentType: 'image/png', body: BLANK_TILE }),
    );
    return context;
  };
  return browser;
};

/**
 * Builds `web/dist` when it is missing (the test runner script normally builds
 * it first). A lock directory keeps two test files from building at once.
 */
export const ensureWebBuilt = async (timeoutMs = 120_000): Promise<string> => {
  const index = join(webDist, 'index.html');
  const lock = join(tmpdir(), `curbside-web-build-${Buffer.from(webDir).toString('base64url')}`);
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(index)) {
    try {
      mkdirSync(lock);
    } catch {
      if (Date.now() > deadline) throw new Error(`Timed out waiting for another build of ${webDist}`);
      await sleep(500);
      continue;
    }
    try {
      if (!existsSync(index)) {
        // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
        execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], {
          cwd: webDir,
          stdio: 'inherit',
          env: { ...process.env, NODE_ENV: 'production' },
        });
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return webDist;
};

const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

type Violation = { id: string; impact?: string | null; nodes: { target: unknown[] }[] };

const expectNoSeriousViolation = (violations: readonly Violation[]) => {
  const found = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      rule: violation.id,
      nodes: violation.nodes.map((node) => node.target.join(' ')),
    }));
  expect(found).toEqual([]);
};

/**
 * No serious or critical WCAG 2.1 AA violation on the page as it is now
 * (axe-core); `exclude` names what axe skips (the map's canvas, say).
 */
export const expectAccessible = async (page: Page, exclude: readonly string[] = []) => {
  let builder = new AxeBuilder({ page }).withTags(WCAG_AA);
  for (const selector of exclude) builder = builder.exclude(selector);
  expectNoSeriousViolation((await builder.analyze()).violations);
};

/** axe-core's own script, as @axe-core/playwright injects it. */
const axeSource = () => {
  const fromAxePlaywright = createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright'));
  return readFileSync(fromAxePlaywright.resolve('axe-core/axe.min.js'), 'utf8');
};

/**
 * As `expectAccessible`, run without a user gesture (Playwright's own scripts count as one):
 * for a page whose state a tap would change, such as one still waiting for a tap to make sound.
 */
export const expectAccessibleUntapped = async (page: Page) => {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Runtime.evaluate', { expression: axeSource() });
    const run = await cdp.send('Runtime.evaluate', {
      expression: `axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(WCAG_AA)} } })
        .then((result) => result.violations)`,
      awaitPromise: true,
      returnByValue: true,
    });
    if (run.exceptionDetails) throw new Error(`axe did not run: ${run.exceptionDetails.text}`);
    expectNoSeriousViolation(run.result.value as Violation[]);
  } finally {
    await cdp.detach();
  }
};

/**
 * Script text (for an init script) that installs a stand-in for React's DevTools hook, so React
 * hands it each commit: `onCommit` is the body of `onCommitFiberRoot(_, root)` (h57kb: the one stub
 * the render-counting tests share).
 */
export const devToolsHook = (onCommit: string) => `(() => {
  let id = 0;
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    isDisabled: false, supportsFiber: true, renderers: new Map(),
    inject(renderer) { this.renderers.set(++id, renderer); return id; },
    checkDCE() {}, onScheduleFiberRoot() {}, onCommitFiberUnmount() {}, onPostCommitFiberRoot() {},
    onCommitFiberRoot(_, root) { ${onCommit} },
  };
})();`;

/**
 * The text of the tooltip the button points at (`aria-describedby`), if one is open, read in
 * one step in the page: read in several (attribute, count, visibility, text), a tooltip that
 * closed between them left Playwright waiting its default 30 s for the text of an element gone.
 */
export const tooltipOf = (button: Locator) =>
  button.evaluate((element: any): string | null => {
    const id = element.getAttribute('aria-describedby');
    const tip = id ? element.ownerDocument.getElementById(id) : null;
    if (tip?.getAttribute('role') !== 'tooltip') return null;
    return tip.checkVisibility() ? tip.textContent : null;
  });

/**
 * Holds the page's requests to each of `urls` (Playwright's route patterns) until the function it
 * answers is called: an answer made to land after what the test waits for first.
 */
export const holdRequests = async (page: Page, ...urls: Array<string | RegExp>) => {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  for (const url of urls) {
    await page.route(url, async (route) => {
      await held;
      await route.continue();
    });
  }
  return release;
};
