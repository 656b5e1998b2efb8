/**
 * What Lighthouse's replay of a page's paint is made of (issue 57): Lighthouse (its default,
 * simulated throttling) does not time the mobile load it reports; it replays the observed load's
 * requests and main-thread tasks on a simulated slow 4G phone (Lantern), and a page's LCP is the
 * end of the last node of its "largest paint" graph: every request that ended before the observed
 * largest paint (scripts, stylesheets and reads alike), the scripts' evaluation and, in the
 * pessimistic graph, every task that laid out the page. This prints, for one page, each graph's
 * nodes with their simulated start and end (ms), so what decides its FCP and LCP can be read
 * rather than guessed.
 *
 *   npx tsx test/lighthouse/lantern-graph.ts [--page "front queue"] [--runs 2]
 *
 * It serves `web/dist` as `npm run lighthouse` does (build it first: `cd web && npx vite build`);
 * the first run warms the server and is not printed. Not part of `npm test`.
 */

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import * as Lantern from 'lighthouse/core/lib/lantern/lantern.js';
import { startLaptop } from './laptop';
import { preparePages } from './pages';

interface SimulatedNode {
  type: string;
  startTime: number;
  endTime: number;
  request?: { url: string; transferSize?: number };
  getEvaluateScriptURLs(): Set<string>;
  didPerformLayout(): boolean;
}
type Timings = Map<SimulatedNode, { startTime: number; endTime: number }>;

const { values } = parseArgs({
  options: { page: { type: 'string', default: 'front queue' }, runs: { type: 'string', default: '2' } },
});
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const simulations = (
  Lantern as unknown as { Simulation: { Simulator: { allNodeTimings: Map<string, Timings> } } }
).Simulation.Simulator.allNodeTimings;
const file = (url: string) => url.replace(/^https?:\/\/[^/]+/, '').slice(0, 70);
const describe = (node: SimulatedNode) =>
  node.type === 'network'
    ? `${file(node.request?.url ?? '')} (${Math.round((node.request?.transferSize ?? 0) / 100) / 10} KB)`
    : `task ${Math.round((node.endTime - node.startTime) / 1000)} ms${[...node.getEvaluateScriptURLs()]
        .map((url) => ` evaluates ${file(url)}`)
        .join('')}${node.didPerformLayout() ? ', lays out' : ''}`;

const laptop = await startLaptop(root);
const chrome = await launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell',
  chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic'],
  logLevel: 'silent',
});
try {
  const page = (await preparePages(laptop.url)).find((candidate) => candidate.name.includes(values.page));
  if (!page) throw new Error(`No page named ${values.page}`);
  for (let run = 0; run < Number(values.runs); run++) {
    simulations.clear();
    const result = await lighthouse(`${laptop.url}${page.path}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      ...(page.cookie ? { extraHeaders: { Cookie: page.cookie } } : {}),
    });
    if (run === 0 || !result) continue;
    const metric = (id: string) => Math.round(result.lhr.audits[id]?.numericValue ?? Number.NaN);
    console.log(
      `\n# ${page.name}, run ${run}: FCP ${metric('first-contentful-paint')} ms, LCP ${metric('largest-contentful-paint')} ms, TBT ${metric('total-blocking-time')} ms`,
    );
    for (const [label, timings] of simulations) {
      if (!/ContentfulPaint$/.test(label)) continue;
      const rows = [...timings].sort(([, a], [, b]) => a.endTime - b.endTime);
      const end = Math.max(...rows.map(([, timing]) => timing.endTime));
      console.log(`\n## ${label}: ${Math.round(end)} ms, ${rows.length} nodes`);
      for (const [node, timing] of rows)
        console.log(
          `${String(Math.round(timing.startTime)).padStart(6)} ${String(Math.round(timing.endTime)).padStart(6)}  ${describe(node)}`,
        );
    }
  }
} finally {
  chrome.kill();
  await laptop.stop();
}
