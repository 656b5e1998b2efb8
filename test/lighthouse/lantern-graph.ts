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
 *   npx tsx test/lighthouse/lantern-graph.ts [--page "front queue"] [--runs 2] [--tasks]
 *
 * `--tasks`: instead, the tasks the TBT counts (simulated 50 ms or longer), in its pessimistic
 * replay: when each ran, what it waited for (the requests that ended before it), what it asked
 * for, and what its trace events were (the longest kinds, inclusive, with the called functions).
 * `--react` (with `--tasks`): each React commit in a task named, with the components it drew
 * (a DevTools hook that stamps the trace, `console.timeStamp`, served in `web/dist` for the run).
 *
 * It serves `web/dist` as `npm run lighthouse` does (build it first: `cd web && npx vite build`);
 * the first run warms the server and is not printed. Not part of `npm test`.
 */

import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import * as Lantern from 'lighthouse/core/lib/lantern/lantern.js';
import { startLaptop } from './laptop';
import { preparePages } from './pages';

interface TraceEvent {
  name: string;
  dur?: number;
  args?: { data?: { functionName?: string; url?: string; type?: string; message?: string } };
}
interface SimulatedNode {
  type: string;
  startTime: number;
  endTime: number;
  request?: { url: string; transferSize?: number };
  childEvents?: TraceEvent[];
  getEvaluateScriptURLs(): Set<string>;
  didPerformLayout(): boolean;
  getDependencies(): SimulatedNode[];
  getDependents(): SimulatedNode[];
}
type Timings = Map<SimulatedNode, { startTime: number; endTime: number }>;

const { values } = parseArgs({
  options: {
    page: { type: 'string', default: 'front queue' },
    runs: { type: 'string', default: '2' },
    tasks: { type: 'boolean', default: false },
    react: { type: 'boolean', default: false },
  },
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

/** A task's trace events, by kind (a called function by its name and file), the longest first. */
const eventsOf = (node: SimulatedNode) => {
  const byKind = new Map<string, number>();
  for (const event of node.childEvents ?? []) {
    const data = event.args?.data;
    const kind =
      event.name === 'FunctionCall' || event.name === 'EvaluateScript'
        ? `${event.name} ${data?.functionName || '(anonymous)'} ${file(data?.url ?? '')}`
        : event.name === 'EventDispatch' || event.name === 'TimerFire'
          ? `${event.name} ${data?.type ?? ''}`
          : event.name;
    byKind.set(kind, (byKind.get(kind) ?? 0) + (event.dur ?? 0) / 1000);
  }
  const counted = new Map<string, number>();
  for (const event of node.childEvents ?? []) counted.set(event.name, (counted.get(event.name) ?? 0) + 1);
  return `${[...byKind]
    .sort(([, a], [, b]) => b - a)
    .slice(0, 6)
    .map(([kind, ms]) => `${kind} ${ms.toFixed(1)}`)
    .join(' | ')}\n         counts: ${[...counted]
    .sort(([, a], [, b]) => b - a)
    .slice(0, 10)
    .map(([name, count]) => `${name} ${count}`)
    .join(' | ')}`;
};

/** The tasks the TBT counts in one replay, with what each waited for and asked for. */
const printTasks = (timings: Timings | undefined) => {
  if (!timings) return console.log('(no TBT replay)');
  const long = [...timings]
    .filter(([node, timing]) => node.type === 'cpu' && timing.endTime - timing.startTime >= 50)
    .sort(([, a], [, b]) => a.startTime - b.startTime);
  console.log(`\n## pessimisticTotalBlockingTime: ${long.length} tasks of 50 ms or more`);
  for (const [node, timing] of long) {
    const requests = (nodes: SimulatedNode[]) =>
      nodes
        .filter((other) => other.type === 'network')
        .map((other) => file(other.request?.url ?? ''))
        .join(', ');
    console.log(
      `${String(Math.round(timing.startTime)).padStart(6)} +${Math.round(timing.endTime - timing.startTime)}  ${describe(node)}`,
    );
    const after = requests(node.getDependencies());
    const asks = requests(node.getDependents());
    if (after) console.log(`         after: ${after}`);
    if (asks) console.log(`         asks for: ${asks}`);
    console.log(`         ${eventsOf(node)}`);
    const begun = (node as unknown as { event: { ts: number } }).event.ts;
    for (const event of node.childEvents ?? [])
      if (event.name === 'TimeStamp')
        console.log(
          `         +${(((event as unknown as { ts: number }).ts - begun) / 1000).toFixed(1)} ms ${event.args?.data?.message}`,
        );
  }
};

/**
 * A React DevTools hook that stamps each commit in the trace with the components it drew (the
 * most drawn first), for `--react`: served from `web/dist` before the entry for the run, removed after.
 */
const REACT_MARKS = `window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = { isDisabled: false, supportsFiber: true, renderers: new Map(),
  inject(r) { this.renderers.set(this.renderers.size + 1, r); return this.renderers.size; }, checkDCE() {},
  onScheduleFiberRoot() {}, onCommitFiberUnmount() {},
  onPostCommitFiberRoot() { console.timeStamp('passive effects end'); },
  onCommitFiberRoot(_, root) {
    // As React DevTools tells a redraw: a fiber cloned in this render (its children are not the
    // previous ones' same objects) that performed work (flag 1); a subtree whose children are the
    // same objects was not visited.
    const names = {}; let n = 0; const origins = [];
    const nameOf = (f) => f.type && (typeof f.type === 'function' || typeof f.type === 'object') ? (f.type.displayName || f.type.name || (f.type.type && (f.type.type.displayName || f.type.type.name)) || (f.type.render && (f.type.render.displayName || f.type.render.name)) || '?') : null;
    const count = (nm) => { n++; names[nm] = (names[nm] || 0) + 1; };
    const mount = (f) => { for (; f; f = f.sibling) { const nm = nameOf(f); if (nm) count(nm); mount(f.child); } };
    const walk = (next, prev, parentDrew) => {
      const nm = nameOf(next);
      let drew = parentDrew;
      if (nm) {
        drew = (next.flags & 1) === 1;
        if (drew) {
          count(nm);
          if (!parentDrew) origins.push(nm + (next.memoizedState !== prev.memoizedState ? '(state)' : next.memoizedProps !== prev.memoizedProps ? '(props)' : '(context)'));
        }
      }
      if (next.child === prev.child) return;
      for (let c = next.child; c; c = c.sibling) {
        if (c.alternate === null) { if (nameOf(c)) count(nameOf(c)); mount(c.child); }
        else walk(c, c.alternate, drew);
      }
    };
    const prevRoot = root.current.alternate;
    if (prevRoot) walk(root.current, prevRoot, false); else mount(root.current.child);
    const top = Object.entries(names).sort((a, b) => b[1] - a[1]).slice(0, 10).map(([k, v]) => k + ':' + v).join(' ');
    console.timeStamp('commit of ' + n + ': ' + top + (origins.length ? ' | began at ' + origins.slice(0, 14).join(' ') : ''));
  } };`;

/**
 * With an unminified build (`vite build --minify false`), React's entry chunk stamped too: each
 * render's start, sliced or whole (a transition's render is sliced, a blocking lane's is not), and
 * each commit's start. The chunk's precompressed copies are set aside for the run (the server would
 * serve them instead).
 */
const REACT_PATCHES: Array<[RegExp, string]> = [
  [
    /exitStatus = (shouldTimeSlice \? renderRootConcurrent\([^)]*\) : renderRootSync\([^)]*\)),/,
    "exitStatus = (console.timeStamp('render begins'), $1),",
  ],
  [
    /(var shouldTimeSlice = [^;]*?renderWasConcurrent = shouldTimeSlice;)/,
    "$1 console.timeStamp('render ends, ' + (shouldTimeSlice ? 'sliced' : 'whole') + ', lanes ' + lanes);",
  ],
  [/(function commitRoot\([^)]*\) \{)/, "$1 console.timeStamp('commit begins');"],
  // Each fiber's render (and the completion it ends) of 3 ms or more, by its component: what keeps
  // a sliced render from yielding.
  [
    /function performUnitOfWork\(unitOfWork\) \{/,
    "function performUnitOfWork(unitOfWork) { var began$u = performance.now(); try { return performUnitOfWork$timed(unitOfWork); } finally { var took$u = performance.now() - began$u, type$u = unitOfWork.type; if (took$u >= 3) console.timeStamp('slow fiber ' + ((type$u && (type$u.displayName || type$u.name || (type$u.render && (type$u.render.displayName || type$u.render.name)) || (type$u.type && (type$u.type.displayName || type$u.type.name)))) || String(type$u)) + ': ' + took$u.toFixed(1) + ' ms'); } } function performUnitOfWork$timed(unitOfWork) {",
  ],
  // Each effect of 0.5 ms or more, by its component (and its function's name, where it has one).
  [
    /lastEffect = create\(\);/,
    "var began$ = performance.now(); lastEffect = create(); var took$ = performance.now() - began$; if (took$ >= 0.5) console.timeStamp('effect of ' + ((finishedWork.type && (finishedWork.type.displayName || finishedWork.type.name)) || '?') + (create.name ? ' ' + create.name : '') + ': ' + took$.toFixed(1) + ' ms');",
  ],
  [
    /(function flushPassiveEffects\(\) \{\s*if \(5 !== pendingEffectsStatus\) return !1;)/,
    "$1 console.timeStamp('passive effects begin');",
  ],
];

const dist = join(root, 'web', 'dist');
const indexHtml = readFileSync(join(dist, 'index.html'), 'utf8');
const entry = /src="(\/assets\/index-[^"]+\.js)"/.exec(indexHtml)?.[1];
const entryFile = entry ? join(dist, entry) : undefined;
const entryCode = entryFile ? readFileSync(entryFile, 'utf8') : undefined;
if (values.react) {
  writeFileSync(join(dist, 'react-marks.js'), REACT_MARKS);
  writeFileSync(
    join(dist, 'index.html'),
    indexHtml.replace('<head>', '<head><script src="/react-marks.js"></script>'),
  );
  if (entryFile && entryCode && REACT_PATCHES.every(([from]) => from.test(entryCode))) {
    writeFileSync(
      entryFile,
      REACT_PATCHES.reduce((code, [from, to]) => code.replace(from, to), entryCode),
    );
    for (const suffix of ['.br', '.gz'])
      if (existsSync(entryFile + suffix)) renameSync(entryFile + suffix, `${entryFile + suffix}.aside`);
  } else console.log('(React not stamped: a minified build)');
}

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
    if (values.tasks) {
      printTasks(simulations.get('pessimisticTotalBlockingTime'));
      continue;
    }
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
  if (values.react) {
    writeFileSync(join(dist, 'index.html'), indexHtml);
    rmSync(join(dist, 'react-marks.js'), { force: true });
    if (entryFile && entryCode) writeFileSync(entryFile, entryCode);
    for (const suffix of ['.br', '.gz'])
      if (entryFile && existsSync(`${entryFile + suffix}.aside`))
        renameSync(`${entryFile + suffix}.aside`, entryFile + suffix);
  }
}
