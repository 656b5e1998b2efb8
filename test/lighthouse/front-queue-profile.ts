/**
 * The front queue's load profiled (issue 57, h57r), as Lighthouse's page makes it: a phone of
 * 390×844 at 4× CPU (CDP), signed in as `front_demo` with cars queued; prints the largest paint,
 * the long tasks (> 50 ms), React's commits (through the DevTools hook) and the API reads, and
 * what came after the paint. Counts move little with the machine's load; durations do.
 * `node --import tsx test/lighthouse/front-queue-profile.ts [runs]` on a built `web/dist`, the
 * laptop on port 3280 (`PROFILE_PORT`). `API=1`: each read; `COMMITS=1`: the components each commit drew (rough:
 * a memoised subtree may count); `PROFILE=1` (an unminified build): a CPU profile after the paint,
 * by function and by React lane (sync render, concurrent render, commit). `SHOTS=dir`: a screenshot
 * of each run (`TABLET=1`: on a 1024×768 tablet, not a phone). With `PROFILE=1`, `TASKS=1`: each
 * long task from 2 s before the paint on, by React lane and what called it, and its functions
 * (inclusive). `RATE=1`: no CPU throttling, as Lighthouse observes the page before it scales its
 * tasks by 4 (the browser reports tasks of 50 ms or more only: Lighthouse's 200 ms and longer; h57a).
 * `BUSY=ms`: the CPU profile's busy stretches of `ms` or more after the paint listed, and with
 * `TASKS=1` broken down like the long tasks (h57a). `REDO=1` (an unminified build): React's `performWorkOnRoot` patched in the served
 * entry to log each render of a transition that is not sliced, and why (`RX inconsistent-store`: a
 * `useSyncExternalStore` read in it changed meanwhile, the component and its snapshot;
 * `RX store-rerender`: a synchronous redraw of a component whose store changed, as it subscribed
 * or after; h57t).
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';
import { preparePages } from './pages';

/** What a CPU profile's sample was doing, from its stack (innermost first): React's lane or other. */
const laneOf = (stack: readonly string[]) => {
  const within = (name: string) => stack.some((frame) => frame.startsWith(name));
  if (within('renderRootSync')) return 'SYNC';
  if (within('renderRootConcurrent')) return 'CONC';
  if (within('commitRoot')) return 'COMMIT';
  if (within('flushPassiveEffects')) return 'PASSIVE';
  return 'other';
};

/** React's production build with each unsliced render of a transition logged (`REDO=1`). */
const redoLogged = (code: string) => {
  const patches: Array<[string, string]> = [
    [
      'var shouldTimeSlice = !forceSync && 0 === (lanes & 127) && 0 === (lanes & root$jscomp$0.expiredLanes) || checkIfRootIsPrerendering(root$jscomp$0, lanes), exitStatus',
      "var shouldTimeSlice = !forceSync && 0 === (lanes & 127) && 0 === (lanes & root$jscomp$0.expiredLanes) || checkIfRootIsPrerendering(root$jscomp$0, lanes); if (!shouldTimeSlice && 0 === (lanes & 127)) console.log('RX sync-nonblocking', Math.round(performance.now()), 'lanes', lanes, 'expired', root$jscomp$0.expiredLanes); var exitStatus",
    ],
    [
      'if (renderWasConcurrent && !isRenderConsistentWithExternalStores(forceSync)) {',
      "if (renderWasConcurrent && !isRenderConsistentWithExternalStores(forceSync)) { console.log('RX inconsistent-store', Math.round(performance.now()), 'lanes', lanes, window.__rxStore);",
    ],
    [
      'if (!objectIs(getSnapshot(), check)) return !1;',
      "if (!objectIs(getSnapshot(), check)) { window.__rxStore = (node.type && (node.type.displayName || node.type.name)) + ' ' + String(getSnapshot).slice(0, 80); return !1; }",
    ],
    [
      'function forceStoreRerender(fiber) {',
      "function forceStoreRerender(fiber) { console.log('RX store-rerender', Math.round(performance.now()), fiber.type && (fiber.type.displayName || fiber.type.name));",
    ],
  ];
  for (const [from, to] of patches) {
    if (!code.includes(from))
      console.log('REDO: not patched (a minified build, or another React):', from.slice(0, 60));
    code = code.replace(from, to);
  }
  return code;
};

const runs = Number(process.argv[2] ?? 3);
const root = process.cwd();
const child = spawn(process.execPath, ['--import', 'tsx', 'packages/local/src/main.ts', '--in-memory'], {
  cwd: root,
  env: {
    ...process.env,
    PORT: process.env.PROFILE_PORT ?? '3280',
    CURBSIDE_FAKE_CLEVER: '0',
    NODE_NO_WARNINGS: '1',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
const url = await new Promise<string>((resolve) => {
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const m = /Curbside is running at (http:\/\/\S+)/.exec(line);
    if (m) resolve(m[1]!.replace('localhost', '127.0.0.1'));
  });
});
try {
  const pages = await preparePages(url);
  const front = pages.find((p) => p.name === 'front queue')!;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium-headless-shell' });
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext({
      ...(process.env.TABLET
        ? { viewport: { width: 1024, height: 768 } }
        : { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true }),
    });
    const [name, value] = front.cookie!.split(/=(.*)/s);
    await context.addCookies([{ name: name!, value: value!, url }]);
    await context.addInitScript(`(() => {
      window.__t = { tasks: [], commits: [], lcp: [] };
      new PerformanceObserver((l) => { for (const e of l.getEntries()) __t.tasks.push([Math.round(e.startTime), Math.round(e.duration)]); }).observe({ type: 'longtask', buffered: true });
      new PerformanceObserver((l) => { for (const e of l.getEntries()) __t.lcp.push(Math.round(e.startTime)); }).observe({ type: 'largest-contentful-paint', buffered: true });
      let id = 0;
      window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = { isDisabled: false, supportsFiber: true, renderers: new Map(),
        inject(r) { this.renderers.set(++id, r); return id; }, checkDCE() {}, onScheduleFiberRoot() {},
        onCommitFiberRoot(_, root) { if (!${process.env.COMMITS ? 'true' : 'false'}) { __t.commits.push(Math.round(performance.now())); return; }
          const names = {}; let n = 0;
          const walk = (f) => { for (; f; f = f.sibling) {
            const alt = f.alternate;
            const did = alt === null || f.memoizedProps !== alt.memoizedProps || f.memoizedState !== alt.memoizedState;
            if (did && typeof f.type === 'function') { n++; const nm = f.type.displayName || f.type.name || '?'; names[nm] = (names[nm] || 0) + 1; }
            if (f.child && (did || (f.subtreeFlags ?? 0) !== 0 || true)) walk(f.child);
          } };
          walk(root.current.child);
          const top = Object.entries(names).sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, v]) => k + ':' + v).join(',');
          __t.commits.push(Math.round(performance.now()) + '[' + n + ' ' + top + ']'); }, onCommitFiberUnmount() {}, onPostCommitFiberRoot() {} };
    })()`);
    const page = await context.newPage();
    if (process.env.REDO) {
      page.on('console', (message) => {
        if (message.text().startsWith('RX')) console.log('   ', message.text());
      });
      await page.route('**/assets/index-*.js', async (route) => {
        const response = await route.fetch();
        const headers = { ...response.headers() };
        delete headers['content-encoding'];
        delete headers['content-length'];
        await route.fulfill({ response, headers, body: redoLogged(await response.text()) });
      });
    }
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(process.env.RATE ?? 4) });
    if (process.env.PROFILE) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    await page.goto(`${url}${front.path}`);
    await page.getByRole('group', { name: 'Car 105' }).waitFor({ timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(3000);
    if (process.env.SHOTS) {
      const device = process.env.TABLET ? 'tablet' : 'phone';
      await page.screenshot({ path: `${process.env.SHOTS}/${device}-${i + 1}.png`, fullPage: true });
    }
    const t = (await page.evaluate('__t')) as {
      tasks: Array<[number, number]>;
      commits: number[];
      lcp: number[];
    };
    const api = (await page.evaluate(
      `performance.getEntriesByType('resource').filter(e => e.name.includes('/api/')).map(e => [Math.round(e.startTime), Math.round(e.responseEnd), e.name.replace(/^https?:\\/\\/[^/]+/, '')])`,
    )) as Array<[number, number, string]>;
    const lcp = t.lcp.at(-1) ?? 0;
    if (process.env.PROFILE) {
      const pageNow = (await page.evaluate('performance.now()')) as number;
      const { profile } = (await cdp.send('Profiler.stop')) as {
        profile: {
          nodes: Array<{
            id: number;
            callFrame: { functionName: string; url: string; lineNumber: number };
            children?: number[];
          }>;
          samples: number[];
          timeDeltas: number[];
          endTime: number;
        };
      };
      const offset = profile.endTime / 1000 - pageNow;
      const byId = new Map(profile.nodes.map((n) => [n.id, n]));
      const parent = new Map<number, number>();
      for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
      const time = profile.endTime;
      const stamps: number[] = [];
      // timeDeltas run forward from startTime; recompute from the start
      let t0 = (profile as unknown as { startTime: number }).startTime;
      for (const d of profile.timeDeltas) {
        t0 += d;
        stamps.push(t0);
      }
      void time;
      const self = new Map<string, number>();
      const comp = new Map<string, number>();
      const incl = new Map<string, number>();
      profile.samples.forEach((id, i) => {
        const at = stamps[i]! / 1000 - offset;
        if (at < lcp) return;
        const dt = (profile.timeDeltas[i + 1] ?? 200) / 1000;
        const n = byId.get(id)!;
        const key = (m: typeof n) =>
          `${m.callFrame.functionName || '(anon)'} ${m.callFrame.url.replace(/^.*\//, '')}:${m.callFrame.lineNumber}`;
        self.set(key(n), (self.get(key(n)) ?? 0) + dt);
        const stack: string[] = [];
        for (let c: number | undefined = id; c !== undefined; c = parent.get(c))
          stack.push(key(byId.get(c)!));
        const named = laneOf(stack);
        const lane = named === 'PASSIVE' || named === 'other' ? '' : `${named} `;
        if (lane) {
          const comps = new Set(stack.filter((k) => /^[A-Z]/.test(k)));
          for (const k of comps) comp.set(lane + k, (comp.get(lane + k) ?? 0) + dt);
          comp.set(`${lane}(all)`, (comp.get(`${lane}(all)`) ?? 0) + dt);
        }
        const seen = new Set<string>();
        for (let c: number | undefined = id; c !== undefined; c = parent.get(c)) {
          const k = key(byId.get(c)!);
          if (!seen.has(k)) {
            seen.add(k);
            incl.set(k, (incl.get(k) ?? 0) + dt);
          }
        }
      });
      // `BUSY=ms`: the profile's busy stretches (no idle sample between) of `ms` or more after the
      // paint, as tasks (at `RATE=1`, 12.5: what Lighthouse scales past 50 ms), for `TASKS`.
      const busy: Array<[number, number]> = [];
      if (process.env.BUSY) {
        let from: number | null = null;
        profile.samples.forEach((id, i) => {
          const at = stamps[i]! / 1000 - offset;
          const idle = byId.get(id)!.callFrame.functionName === '(idle)';
          if (!idle && from === null) from = at;
          if (idle && from !== null) {
            if (from >= lcp && at - from >= Number(process.env.BUSY)) busy.push([from, at - from]);
            from = null;
          }
        });
        console.log(
          `  busy after paint (>= ${process.env.BUSY} ms): ${busy.map(([a, d]) => `${Math.round(a)}+${Math.round(d)}`).join(' ')}`,
        );
      }
      const windows = process.env.TASKS ? [...t.tasks.filter(([start]) => start >= lcp - 2000), ...busy] : [];
      for (const [ws, wd] of windows) {
        const inc = new Map<string, number>();
        const lanes = new Map<string, number>();
        profile.samples.forEach((id, i) => {
          const at = stamps[i]! / 1000 - offset;
          if (at < ws || at > ws + wd) return;
          const dt = (profile.timeDeltas[i + 1] ?? 200) / 1000;
          const seen = new Set<string>();
          const chain: string[] = [];
          for (let c: number | undefined = id; c !== undefined; c = parent.get(c)) {
            const m = byId.get(c)!;
            const k = `${m.callFrame.functionName || '(anon)'} ${m.callFrame.url.replace(/^.*\//, '')}:${m.callFrame.lineNumber}`;
            chain.push(k);
            if (!seen.has(k)) {
              seen.add(k);
              inc.set(k, (inc.get(k) ?? 0) + dt);
            }
          }
          const lane = laneOf(chain);
          lanes.set(lane, (lanes.get(lane) ?? 0) + dt);
          const entry = chain.slice(-4, -1).reverse().join(' > ');
          lanes.set(`  entry: ${entry}`, (lanes.get(`  entry: ${entry}`) ?? 0) + dt);
        });
        const tops = [...inc]
          .filter(([k]) => !/^\((root|program|idle)\)/.test(k))
          .sort((a, b) => b[1] - a[1])
          .slice(0, Number(process.env.TOPN ?? 40))
          .map(([n, v]) => `${Math.round(v)} ${n}`)
          .join('\n      ');
        const ln = [...lanes]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 12)
          .map(([n, v]) => `${Math.round(v)} ${n}`)
          .join('\n      ');
        console.log(`  TASK ${ws}+${wd} (LCP ${lcp}):\n      ${ln}\n    --\n      ${tops}`);
      }
      const top = (m: Map<string, number>, k: number) =>
        [...m]
          .sort((a, b) => b[1] - a[1])
          .slice(0, k)
          .map(([n, v]) => `${Math.round(v)} ${n}`)
          .join('\n    ');
      // `EFFECTS=1`: the whole load's passive and layout effects, by the effect's function (the frame
      // React's commitHookEffectListMount called) and what it called in turn, each a sum of samples.
      if (process.env.EFFECTS) {
        const effects = new Map<string, number>();
        profile.samples.forEach((id, i) => {
          const dt = (profile.timeDeltas[i + 1] ?? 200) / 1000;
          const stack: string[] = [];
          for (let c: number | undefined = id; c !== undefined; c = parent.get(c)) {
            const m = byId.get(c)!;
            stack.push(
              `${m.callFrame.functionName || '(anon)'} ${m.callFrame.url.replace(/^.*\//, '')}:${m.callFrame.lineNumber}`,
            );
          }
          const at = stack.findIndex((k) => k.startsWith('commitHookEffectListMount'));
          if (at < 1) return;
          const key = stack
            .slice(Math.max(0, at - 3), at)
            .reverse()
            .join(' > ');
          effects.set(key, (effects.get(key) ?? 0) + dt);
        });
        console.log(`  effects, whole load:\n    ${top(effects, Number(process.env.TOPN ?? 40))}`);
      }
      console.log(`  self after paint:\n    ${top(self, 25)}`);
      console.log(`  inclusive after paint:\n    ${top(incl, 30)}`);
      console.log(`  components after paint:\n    ${top(comp, 50)}`);
    }
    const after = t.tasks.filter(([s]) => s >= lcp);
    console.log(
      `run ${i + 1}: LCP ${lcp} ms; long tasks ${t.tasks.length} (after paint ${after.length}, sum ${after.reduce((a, [, d]) => a + d, 0)} ms, over 50 beyond: ${after.reduce((a, [, d]) => a + Math.max(0, d - 50), 0)}); commits ${t.commits.length} (after paint ${t.commits.filter((c) => parseInt(String(c), 10) >= lcp).length}); api ${api.length}`,
    );
    console.log('  tasks', t.tasks.map(([s, d]) => `${s}+${d}`).join(' '));
    if (process.env.COMMITS) for (const c of t.commits) console.log('   c', c);
    else console.log('  commits', t.commits.map((c) => String(c).split('[')[0]).join(' '));
    if (process.env.API) for (const a of api) console.log('  ', a.join(' '));
    await context.close();
  }
  await browser.close();
} finally {
  child.kill('SIGTERM');
}
