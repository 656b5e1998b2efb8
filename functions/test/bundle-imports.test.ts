import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { bundleIds } from '@curbside/api';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  budgeted,
  bundleTable,
  functionsDist,
  IMPORT_BUDGET_MS,
  measureBundles,
} from '../src/build/bundle-imports';

/**
 * Cold starts: each function bundle imported in a fresh Node process, five
 * times, the median reported (bytes, CPU and wall milliseconds). The budget
 * (every HTTP and WebSocket function under 150 ms) belongs to the benchmark's
 * report (`npm run bench`); this test prints the same table and fails on a
 * regression: a bundle past `MAX_BYTES` (exact, whatever the load: the
 * bundles before ADR 0019 were 1.1–1.2 MB, those after 0.62–0.72 MB), or the
 * least CPU time of the five imports past `REGRESSION_FACTOR` × the budget (a
 * machine shared with other work inflates CPU time far less than wall time,
 * and only ever adds to it; generous, so a loaded CI machine does not trip it).
 */
const REGRESSION_FACTOR = 2;
const MAX_BYTES = 800 * 1024;
beforeAll(() => {
  if (bundleIds().some((id) => !existsSync(join(functionsDist, id, 'index.mjs')))) {
    execFileSync('npx', ['tsx', 'build.ts'], { cwd: join(functionsDist, '..'), stdio: 'inherit' });
  }
}, 180_000);

describe('importing the function bundles (a cold start before the first request)', () => {
  it(`takes no HTTP or WebSocket function past ${REGRESSION_FACTOR} × the ${IMPORT_BUDGET_MS} ms budget`, async () => {
    const rows = await measureBundles(5);
    console.log(
      ['Function bundles: bytes, import ms (median of 5 fresh processes)', ...bundleTable(rows)].join('\n'),
    );
    expect(rows.map((row) => row.id)).toEqual(bundleIds());
    for (const row of rows.filter(budgeted)) expect(row.bytes, row.id).toBeLessThan(MAX_BYTES);
    const over = rows.filter(
      (row) => budgeted(row) && !(row.minCpuMs < IMPORT_BUDGET_MS * REGRESSION_FACTOR),
    );
    expect(over.map((row) => `${row.id}: ${row.minCpuMs.toFixed(0)} ms`)).toEqual([]);
  }, 300_000);
});
