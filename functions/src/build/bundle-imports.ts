/**
 * How long a cold start spends importing each function bundle
 * (`functions/dist/{id}/index.mjs`): each import runs in a fresh Node process
 * (nothing cached, as in a new Lambda sandbox), several times; the median
 * counts. Each run measures the import's wall time and the CPU time the
 * process spent on it (`process.cpuUsage`, every thread). On a machine shared
 * with other work the wall time grows with the load (3–8× on the 2 shared
 * cores this was written on) while the CPU time stays within a few percent of
 * what an unshared machine takes to import: the budget is checked on the CPU
 * time, and both are printed. The functions test
 * (`functions/test/bundle-imports.test.ts`) and the benchmark's report
 * (`npm run bench`) print these figures.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { bundleIds, functionPlan } from '@curbside/api';

const run = promisify(execFile);

/** Every HTTP and WebSocket function imports its bundle in under this (CPU time of the import), on this machine. */
export const IMPORT_BUDGET_MS = 150;

export const functionsDist = fileURLToPath(new URL('../../dist/', import.meta.url));

export interface BundleImport {
  id: string;
  /** `http`, `ws`, `scheduled` or `job` (the secret rotation and the import jobs). */
  kind: 'http' | 'ws' | 'scheduled' | 'job';
  /** Every file of the function's folder (`index.mjs` and the chunks it loads on demand): what is deployed. */
  bytes: number;
  /** Median of the runs' wall time, milliseconds. */
  medianMs: number;
  /** Median of the runs' CPU time, milliseconds: what the budget is checked on. */
  cpuMs: number;
  /** The least CPU time of the runs: a shared machine only adds to it (the test's regression guard). */
  minCpuMs: number;
  /** Each run: wall and CPU milliseconds. */
  runs: Array<{ ms: number; cpuMs: number }>;
}

/**
 * The child: the import alone, with the environment a Lambda sandbox has (a
 * table name, a region); a bundle does no network at import.
 */
const childSource = `
const c0 = process.cpuUsage();
const t0 = performance.now();
await import(process.argv[1]);
const ms = performance.now() - t0;
const c = process.cpuUsage(c0);
console.log(JSON.stringify({ ms, cpuMs: (c.user + c.system) / 1000 }));
`;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

const lambdaEnv = {
  PATH: process.env.PATH ?? '',
  TABLE_NAME: 'curbside',
  CONNECTION_TABLE_NAME: 'curbside-connections',
  WS_MANAGEMENT_ENDPOINT: 'https://example.execute-api.us-east-1.amazonaws.com/prod',
  AWS_REGION: 'us-east-1',
  LOG_LEVEL: 'silent',
};

/** The bytes of every file under a folder. */
const folderBytes = (dir: string): number =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);

const kindOf = (id: string): BundleImport['kind'] =>
  functionPlan().find((plan) => plan.id === id)?.kind ?? 'job';

/** One bundle: `runs` fresh processes, one after the other. */
export const measureBundle = async (id: string, runs = 5, dist = functionsDist): Promise<BundleImport> => {
  const file = join(dist, id, 'index.mjs');
  if (!existsSync(file)) throw new Error(`No bundle ${file}: run (cd functions && npx tsx build.ts)`);
  const runsOut: Array<{ ms: number; cpuMs: number }> = [];
  for (let i = 0; i < runs; i++) {
    const { stdout } = await run(
      process.execPath,
      ['--no-warnings', '--input-type=module', '-e', childSource, file],
      { env: lambdaEnv, timeout: 60_000 },
    );
    runsOut.push(JSON.parse(stdout.trim().split('\n').at(-1) as string));
  }
  return {
    id,
    kind: kindOf(id),
    bytes: folderBytes(join(dist, id)),
    medianMs: median(runsOut.map((r) => r.ms)),
    cpuMs: median(runsOut.map((r) => r.cpuMs)),
    minCpuMs: Math.min(...runsOut.map((r) => r.cpuMs)),
    runs: runsOut,
  };
};

/** Every bundle of the functions build, one after the other. */
export const measureBundles = async (runs = 5, dist = functionsDist): Promise<BundleImport[]> => {
  const out: BundleImport[] = [];
  for (const id of bundleIds()) out.push(await measureBundle(id, runs, dist));
  return out;
};

/** The functions whose import the budget covers: every HTTP and WebSocket function. */
export const budgeted = (row: BundleImport): boolean => row.kind === 'http' || row.kind === 'ws';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

/** A plain table: function, kind, bytes, median import (CPU ms, against the budget; wall ms). */
export const bundleTable = (rows: readonly BundleImport[]): string[] => {
  const header = ['function', 'kind', 'bytes', 'import CPU ms', 'import wall ms'];
  const body = rows.map((row) => [
    row.id,
    row.kind,
    kb(row.bytes),
    `${row.cpuMs.toFixed(0)}${budgeted(row) ? (row.cpuMs < IMPORT_BUDGET_MS ? '' : ' ✖') : ' (no budget)'}`,
    row.medianMs.toFixed(0),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] as number))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '─'.repeat(w))), ...body.map(line)];
};
