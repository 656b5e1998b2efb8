/**
 * `npm run lighthouse [-- --runs N] [--page NAME]`: issue 57's phone budget. Starts the laptop
 * runtime (in memory, the built web app), prepares the pages (`pages.ts`) and runs Lighthouse
 * (the npm package, pinned in test/package.json) in its default mobile profile on each page
 * `--runs` times (3), in Chromium's headless shell (else /usr/bin/chromium; `CHROMIUM_PATH`).
 * Prints a table of the medians with the machine's load beside each page, writes every run under
 * `.lighthouse/`, and exits 1 when a page misses the budget (`budget.ts`). Not part of `npm test`:
 * a shared or busy machine measures slower (Lighthouse scales what it observes of the CPU).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { formatTable, medianRun, missedBudget, type PageResult, type RunFigures } from './budget';
import { startLaptop } from './laptop';
import { type LighthousePage, preparePages } from './pages';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    page: { type: 'string', multiple: true },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log(
    [
      'npm run lighthouse -- [options]',
      '  --runs N       Lighthouse runs per page (default 3); every figure is the median of the runs',
      '  --page NAME    only the pages whose name contains NAME (repeatable)',
    ].join('\n'),
  );
  process.exit(0);
}
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1 || runs > 15) {
  console.error(`--runs must be a whole number from 1 to 15, not ${values.runs}`);
  process.exit(2);
}

const CHROMIUM =
  process.env.CHROMIUM_PATH ??
  ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) => existsSync(path));
if (!CHROMIUM) {
  console.error(
    'Lighthouse needs Chromium: apt-get install -y chromium-headless-shell (or set CHROMIUM_PATH).',
  );
  process.exit(1);
}

const figuresOf = (lhr: {
  categories: Record<string, { score: number | null } | undefined>;
  audits: Record<string, { numericValue?: number } | undefined>;
}): RunFigures => {
  const score = (category: string) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
  const metric = (audit: string) => lhr.audits[audit]?.numericValue ?? Number.NaN;
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    fcpMs: metric('first-contentful-paint'),
    lcpMs: metric('largest-contentful-paint'),
    tbtMs: metric('total-blocking-time'),
    speedIndexMs: metric('speed-index'),
    cls: metric('cumulative-layout-shift'),
  };
};

const load1 = () => loadavg()[0] as number;

const laptop = await startLaptop(root);
const chrome = await launch({
  chromePath: CHROMIUM,
  chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic'],
  logLevel: 'silent',
});
const outDir = join(root, '.lighthouse', new Date().toISOString().replace(/[:.]/g, '-'));
mkdirSync(outDir, { recursive: true });
let failed = false;
try {
  const pages = (await preparePages(laptop.url)).filter(
    (page) => !values.page || values.page.some((name) => page.name.includes(name)),
  );
  const audit = async (page: LighthousePage) => {
    const result = await lighthouse(`${laptop.url}${page.path}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
      ...(page.cookie ? { extraHeaders: { Cookie: page.cookie } } : {}),
    });
    if (!result) throw new Error(`Lighthouse gave no result for ${page.name}`);
    const error = result.lhr.runtimeError;
    if (error) throw new Error(`Lighthouse on ${page.name}: ${error.code} ${error.message}`);
    return result;
  };
  // One unmeasured load of each page first: the server's code is warm, as a deployed one is.
  for (const page of pages) await audit(page);
  const results: PageResult[] = [];
  for (const page of pages) {
    const before = load1();
    const figures: RunFigures[] = [];
    for (let run = 1; run <= runs; run++) {
      const { lhr } = await audit(page);
      figures.push(figuresOf(lhr));
      const file = `${page.name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}-${run}.json`;
      writeFileSync(join(outDir, file), JSON.stringify(lhr));
    }
    const result: PageResult = {
      page: page.name,
      median: medianRun(figures),
      runs: figures,
      load: { before, after: load1() },
    };
    results.push(result);
    const missed = missedBudget(result.median);
    console.log(
      `${page.name}: performance ${result.median.performance}, LCP ${Math.round(result.median.lcpMs)} ms, TBT ${Math.round(result.median.tbtMs)} ms, accessibility ${result.median.accessibility}${missed.length ? ` — ${missed.join('; ')}` : ''}`,
    );
    if (missed.length) failed = true;
  }
  writeFileSync(join(outDir, 'summary.json'), JSON.stringify(results, null, 2));
  console.log(`\nLighthouse ${runs > 1 ? `(median of ${runs} runs)` : '(one run)'}, mobile profile:\n`);
  console.log(formatTable(results));
  console.log(`\nEvery run's report: ${relative(process.cwd(), outDir)}/`);
} catch (error) {
  console.error(`✖ ${(error as Error).message}`);
  failed = true;
} finally {
  chrome.kill();
  await laptop.stop();
}
process.exit(failed ? 1 : 0);
