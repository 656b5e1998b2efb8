/**
 * What the server's one thread was busy with in a rush, and what the API calls waited for
 * (issue 54, h54m). Reads a V8 CPU profile of the server (`npm run bench -- --cpu-prof`) and the
 * server's per-second loop file (`CURBSIDE_LOOP=<file>`, `packages/local/src/loop-watch.ts`):
 *
 *   npx tsx test/bench/loop-stretches.ts <profile.cpuprofile> <loop.jsonl> [--from S --to S]
 *
 * The rush is the longest run of seconds with API calls in the loop file (or `--from`/`--to`, in
 * seconds of that file). A stretch is a run of the profile's samples with no idle sample between
 * them: the thread ran without a turn of the event loop's I/O polling. Printed: the stretches'
 * lengths (what an arriving request could have waited behind), the share of busy time in
 * stretches over 2, 5 and 10 ms, what the long stretches ran (by package, by the callback that
 * began them), the loop's delay per second, and per route the calls' queue / handler / write times.
 */
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}
interface LoopLine {
  at: number;
  pid?: number;
  hr?: number;
  loop: { count: number; mean: number; p50: number; p90: number; p99: number; max: number };
  calls: Record<string, { queue: number; handler: number; write: number }[]>;
}

const [profileFile, loopFile, ...rest] = process.argv.slice(2);
if (!profileFile || !loopFile) {
  console.error('usage: loop-stretches.ts <profile.cpuprofile> <loop.jsonl> [--from S --to S]');
  process.exit(2);
}
const flag = (name: string) => {
  const at = rest.indexOf(name);
  return at >= 0 ? Number(rest[at + 1]) : undefined;
};

const profile = JSON.parse(readFileSync(profileFile, 'utf8')) as Profile;
const allLines = readFileSync(loopFile, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as LoopLine);
// Every process that loads the runtime writes there (the benchmark's load generator too): the
// server is the one that served the calls. A file without pids keeps the seconds with calls.
const callsIn = (line: LoopLine) => Object.values(line.calls).reduce((sum, calls) => sum + calls.length, 0);
const servedBy = new Map<number, number>();
for (const line of allLines) servedBy.set(line.pid ?? 0, (servedBy.get(line.pid ?? 0) ?? 0) + callsIn(line));
const server = [...servedBy.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
const lines = allLines.filter(
  (line) => (line.pid ?? 0) === server && (line.pid !== undefined || callsIn(line) > 0),
);

/** The rush: the longest run of seconds with at least 10 API calls each (gaps of 2 s allowed). */
const rushOf = (): [number, number] => {
  const from = flag('--from');
  const to = flag('--to');
  if (from !== undefined && to !== undefined) return [from, to];
  let best: [number, number] = [0, 0];
  let start = -1;
  let quiet = 0;
  lines.forEach((line, i) => {
    if (callsIn(line) >= 10) {
      if (start < 0) start = i;
      quiet = 0;
      if (i - start > best[1] - best[0]) best = [start, i];
    } else if (start >= 0 && ++quiet > 2) start = -1;
  });
  return best;
};
const [first, last] = rushOf();
const rushLines = lines.slice(first, last + 1);

// The profile's clock is the monotonic one in µs; a loop line's `hr` is the same clock, else its
// wall time is lined up with the profile's end (the process's exit, the loop file's last line).
const lastLine = lines[lines.length - 1] as LoopLine;
const toProfile = (line: LoopLine) =>
  line.hr !== undefined ? line.hr : profile.endTime - (lastLine.at - line.at) * 1000;
const windowStart = toProfile(rushLines[0] as LoopLine) - 1_000_000;
const windowEnd = toProfile(rushLines[rushLines.length - 1] as LoopLine);

const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const stackOf = (id: number): CallFrame[] => {
  const stack: CallFrame[] = [];
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const node = nodes.get(at);
    if (node) stack.push(node.callFrame);
  }
  return stack; // leaf first
};

/** Where a sample's time goes, by the innermost frame of a package we can name. */
const kindOf = (stack: CallFrame[]): string => {
  const leaf = stack[0]?.functionName ?? '';
  if (leaf === '(garbage collector)') return 'gc';
  if (leaf === '(program)') return 'program (V8/native)';
  for (const frame of stack) {
    const url = frame.url;
    if (url === '') continue;
    if (/@smithy|@aws-sdk/.test(url)) return 'AWS SDK (serde, signing, middleware)';
    if (/node_modules\/.*\/ws\//.test(url)) return 'ws (frames to sockets)';
    if (/node_modules\/.*zod/.test(url)) return 'zod';
    if (/node_modules\/.*(powertools|middy)/.test(url)) return 'middy / powertools';
    if (/functions\/src\/lib\/publisher/.test(url)) return 'publisher (posts)';
    if (/functions\/src/.test(url)) return 'handlers (functions/src)';
    if (/packages\/store\/src\/meter|meter\.ts/.test(url)) return 'meter (measuring)';
    if (/packages\/store/.test(url)) return 'store (packages/store)';
    if (/packages\/local/.test(url)) return 'laptop runtime (packages/local)';
    if (/packages\/(api|domain)/.test(url)) return 'api / domain';
    if (/node_modules/.test(url)) return 'other packages';
  }
  for (const frame of stack) {
    if (/_http_|http_parser|node:http/.test(frame.url)) return 'node http';
    if (/node:net|stream/.test(frame.url)) return 'node net / streams';
  }
  return `node (${stack.find((frame) => frame.url !== '')?.url.replace(/^node:/, '') ?? leaf})`;
};
/** What began a stretch: the outermost named callback of its first sample. */
const entryOf = (stack: CallFrame[]): string => {
  const named = stack.filter((frame) => frame.functionName !== '' && !frame.functionName.startsWith('('));
  const root = named[named.length - 1];
  return root
    ? `${root.functionName} ${root.url.replace(/^.*\/(node_modules|packages|functions)\//, '')}`
    : '?';
};

let t = profile.startTime;
interface Stretch {
  start: number;
  ms: number;
  kinds: Map<string, number>;
  entry: string;
}
const stretches: Stretch[] = [];
let current: Stretch | undefined;
const totals = new Map<string, number>();
for (let i = 0; i < profile.samples.length; i++) {
  const delta = profile.timeDeltas[i] ?? 0;
  t += delta;
  if (t < windowStart || t > windowEnd) continue;
  const stack = stackOf(profile.samples[i] as number);
  const idle = stack[0]?.functionName === '(idle)';
  if (idle) {
    if (current) stretches.push(current);
    current = undefined;
    continue;
  }
  const ms = (profile.timeDeltas[i + 1] ?? delta) / 1000;
  current ??= { start: t, ms: 0, kinds: new Map(), entry: entryOf(stack) };
  current.ms += ms;
  const kind = kindOf(stack);
  current.kinds.set(kind, (current.kinds.get(kind) ?? 0) + ms);
  totals.set(kind, (totals.get(kind) ?? 0) + ms);
}
if (current) stretches.push(current);

const windowS = (windowEnd - windowStart) / 1e6;
const busy = stretches.reduce((sum, s) => sum + s.ms, 0);
const sorted = [...stretches].sort((a, b) => a.ms - b.ms);
const pct = (p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]?.ms ?? 0;
const f1 = (n: number) => n.toFixed(1);
console.log(
  `Rush: loop file seconds ${first}–${last} (${windowS.toFixed(0)} s); thread busy ${f1(busy / 1000)} s (${f1((busy / 10 / windowS) | 0)}% of the time)`,
);
console.log(
  `Stretches: ${stretches.length}; length p50 ${f1(pct(50))} ms, p90 ${f1(pct(90))}, p99 ${f1(pct(99))}, max ${f1(sorted[sorted.length - 1]?.ms ?? 0)}`,
);
for (const limit of [2, 5, 10, 20]) {
  const over = stretches.filter((s) => s.ms > limit);
  const ms = over.reduce((sum, s) => sum + s.ms, 0);
  console.log(
    `  over ${limit} ms: ${over.length} stretches, ${f1(ms / 1000)} s (${f1((100 * ms) / busy)}% of busy)`,
  );
}
// A request arriving at a random moment waits for the rest of the stretch it lands in.
const waitSum = stretches.reduce((sum, s) => sum + (s.ms * s.ms) / 2, 0);
console.log(
  `A request arriving at a random moment waits on average ${f1(waitSum / (windowS * 1000))} ms for the thread (Σ L²/2 ÷ T)`,
);
const share = (map: Map<string, number>, of: number) =>
  [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 9)
    .map(([kind, ms]) => `${kind} ${f1((100 * ms) / of)}%`)
    .join(', ');
console.log(`Busy time by kind: ${share(totals, busy)}`);
const long = stretches.filter((s) => s.ms > 5);
const longKinds = new Map<string, number>();
const longEntries = new Map<string, number>();
for (const s of long) {
  for (const [kind, ms] of s.kinds) longKinds.set(kind, (longKinds.get(kind) ?? 0) + ms);
  longEntries.set(s.entry, (longEntries.get(s.entry) ?? 0) + s.ms);
}
const longMs = long.reduce((sum, s) => sum + s.ms, 0);
console.log(`Stretches over 5 ms by kind: ${share(longKinds, longMs)}`);
console.log('Stretches over 5 ms by the callback that began them:');
for (const [entry, ms] of [...longEntries.entries()].sort((a, b) => b[1] - a[1]).slice(0, 10))
  console.log(`  ${f1(ms)} ms  ${entry}`);
console.log('The 8 longest:');
for (const s of [...stretches].sort((a, b) => b.ms - a.ms).slice(0, 8))
  console.log(
    `  ${f1(s.ms)} ms at +${f1((s.start - windowStart) / 1e6)} s: ${s.entry}; ${share(s.kinds, s.ms)}`,
  );

const loopMean = rushLines.reduce((sum, line) => sum + line.loop.mean, 0) / rushLines.length;
const loopP99s = rushLines.map((line) => line.loop.p99).sort((a, b) => a - b);
console.log(
  `Loop delay (1 ms timer, per second of the rush): mean of means ${f1(loopMean)} ms, median p99 ${f1(loopP99s[loopP99s.length >> 1] ?? 0)} ms, max ${f1(Math.max(...rushLines.map((line) => line.loop.max)))} ms`,
);
const byRoute = new Map<string, { queue: number; handler: number; write: number }[]>();
for (const line of rushLines)
  for (const [route, calls] of Object.entries(line.calls))
    byRoute.set(route, [...(byRoute.get(route) ?? []), ...calls]);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.95)] ?? 0;
console.log('route                 calls  queue p50/p95  handler p50/p95  write p50/p95  (ms, server side)');
for (const [route, calls] of [...byRoute.entries()].sort((a, b) => b[1].length - a[1].length).slice(0, 8)) {
  const q = calls.map((c) => c.queue);
  const h = calls.map((c) => c.handler);
  const w = calls.map((c) => c.write);
  console.log(
    `${route.padEnd(20)} ${String(calls.length).padStart(6)}  ${f1(median(q)).padStart(5)} / ${f1(p95(q)).padStart(5)}  ${f1(median(h)).padStart(6)} / ${f1(p95(h)).padStart(6)}  ${f1(median(w)).padStart(5)} / ${f1(p95(w)).padStart(5)}`,
  );
}

// With `--trace <file>` (`CURBSIDE_TRACE`): the polls' handler time split into its CPU before the
// DynamoDB calls, the calls' span (one round trip: the calls in parallel) and the work after them.
const traceAt = rest.indexOf('--trace');
const traceFile = traceAt >= 0 ? rest[traceAt + 1] : undefined;
if (traceFile) {
  const from = (rushLines[0] as LoopLine).at - 1000;
  const to = (rushLines[rushLines.length - 1] as LoopLine).at;
  const polls = new Map<string, { pre: number[]; span: number[]; post: number[]; ms: number[] }>();
  for (const line of readFileSync(traceFile, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const entry = JSON.parse(line) as {
      module: string;
      at: number;
      ms: number;
      calls: [string, number, number][];
    };
    if (entry.at < from || entry.at > to || entry.calls.length === 0) continue;
    if (!/parentStudentStatus|listQueue|listAlerts/.test(entry.module)) continue;
    const starts = entry.calls.map((call) => call[1]);
    const ends = entry.calls.map((call) => call[2]);
    const figures = polls.get(entry.module) ?? { pre: [], span: [], post: [], ms: [] };
    figures.pre.push(Math.min(...starts));
    figures.span.push(Math.max(...ends) - Math.min(...starts));
    figures.post.push(entry.ms - Math.max(...ends));
    figures.ms.push(entry.ms);
    polls.set(entry.module, figures);
  }
  console.log(
    'poll (trace)              calls  before the calls p50/p95  the calls p50/p95  after p50/p95  handler p50',
  );
  for (const [module, figures] of polls)
    console.log(
      `${module.padEnd(24)} ${String(figures.ms.length).padStart(6)}  ${f1(median(figures.pre)).padStart(8)} / ${f1(p95(figures.pre)).padStart(5)}  ${f1(median(figures.span)).padStart(8)} / ${f1(p95(figures.span)).padStart(5)}  ${f1(median(figures.post)).padStart(5)} / ${f1(p95(figures.post)).padStart(5)}  ${f1(median(figures.ms))}`,
    );
}
