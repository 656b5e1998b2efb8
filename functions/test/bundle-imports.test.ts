import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { bundleIds } from '@curbside/api';
import { beforeAll, describe, expect, it } from 'vitest';
import { budgeted, bundleTable, functionsDist, measureBundles } from '../src/build/bundle-imports';

/**
 * Cold starts: each function bundle imported in a fresh Node process, five
 * times, the median reported (bytes, CPU and wall milliseconds). The budget
 * (every HTTP and WebSocket function under 150 ms) belongs to the benchmark's
 * report (`npm run bench`); this test prints the same table and fails on a
 * function past `MAX_BYTES` (its folder: `index.mjs` and the chunks it loads
 * on demand; exact, whatever the load: the bundles before ADR 0019 were
 * 1.1–1.2 MB, those after 0.62–0.72 MB, the admin one 0.9 MB with SES).
 */
// The HTTP and WebSocket functions' folders: 550–760 KB, of which 400–490 KB load at a cold start.
const MAX_BYTES = 1000 * 1024;
beforeAll(() => {
  if (bundleIds().some((id) => !existsSync(join(functionsDist, id, 'index.mjs')))) {
    execFileSync('npx', ['tsx', 'build.ts'], { cwd: join(functionsDist, '..'), stdio: 'inherit' });
  }
}, 180_000);

describe('importing the function bundles (a cold start before the first request)', () => {
  // The import times are printed here and budgeted in the benchmark's report (issue 31): a timed
  // assertion failed on CI, where this file shares two cores with the rest of the suite.
  it('builds every HTTP and WebSocket function under its size limit, and prints each import time', async () => {
    const rows = await measureBundles(5);
    console.log(
      ['Function bundles: bytes, import ms (median of 5 fresh processes)', ...bundleTable(rows)].join('\n'),
    );
    expect(rows.map((row) => row.id)).toEqual(bundleIds());
    for (const row of rows.filter(budgeted)) expect(row.bytes, row.id).toBeLessThan(MAX_BYTES);
    for (const row of rows) expect(row.minCpuMs, row.id).toBeGreaterThan(0);
  }, 300_000);
});
