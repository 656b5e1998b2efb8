import { defineConfig } from 'vitest/config';
import { SmokeFirstSequencer } from './test/support/sequencer';

/**
 * Three projects, one run: `unit` (domain, store, functions, the laptop
 * runtime's parts, web logic: the quick one), `integration` (API and
 * WebSocket flows over the laptop runtime, the benchmark's smoke run, and
 * what starts processes or builds: the CDK stack's synthesis, the function
 * bundles, DynamoDB Local's own starts, the laptop's admin and seed runs) and
 * `browser` (screens in headless Chromium). `npm test` runs all three;
 * `npm test -- --project unit` the quick one. DynamoDB Local starts once for
 * the run (globalSetup); each test file gets its own table (setupFiles).
 * Workers stay modest: CI has 2 cores. The smoke benchmark starts first.
 */
/** Tests that start processes or build, whatever folder their subject is in: not quick. */
const slowSetUp = [
  'infra/test/**/*.test.ts',
  'functions/test/build-plugins.test.ts',
  'functions/test/bundle-imports.test.ts',
  'functions/test/bundles.test.ts',
  'functions/test/lazy-schemas.test.ts',
  'packages/local/test/dynamo.test.ts',
  'packages/local/test/admin-laptop.test.ts',
  'packages/local/test/seed.test.ts',
];

/** The API flows run a second time against the built bundles (project `bundles`). */
const BUNDLE_FLOWS = [
  'test/api/queue.test.ts',
  'test/api/batches.test.ts',
  'test/api/teacher.test.ts',
  'test/api/sessions.test.ts',
  'test/api/parents.test.ts',
  'test/api/parent-invites.test.ts',
  'test/api/auth.test.ts',
  'test/api/passwords.test.ts',
];

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/table-per-file.ts'],
    pool: 'forks',
    // A worker process runs file after file: the packages under node_modules load once per
    // worker, not once per file; each file gets this repository's modules, the environment and
    // timers afresh (table-per-file.ts). A fresh process per file cost about half a second of a
    // core each (about 50 s of a fresh run's 500).
    isolate: false,
    // Two workers: CI has 2 cores. Three made fresh runs about 10 s shorter (473–491 s against
    // 491–504 s whole) for 10–15% more CPU, and every test a little more likely to time out.
    maxWorkers: 2,
    sequence: { sequencer: SmokeFirstSequencer },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll's own default (1 s) is shorter than a first page load on a busy 2-core CI machine.
    expect: { poll: { timeout: 10_000 } },
    env: { LOG_LEVEL: 'silent', AWS_REGION: 'us-east-1' },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'packages/*/test/**/*.test.ts',
            'functions/test/**/*.test.ts',
            'web/test/**/*.test.ts',
            'test/unit/**/*.test.ts',
          ],
          exclude: slowSetUp,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/api/**/*.test.ts', 'test/ws/**/*.test.ts', 'test/bench/**/*.test.ts', ...slowSetUp],
        },
      },
      {
        // Issue 55: the car-line, parent and auth flows again, against the built function bundles
        // (functions/dist, what Lambda runs), so a fault of the bundles' build fails the run.
        extends: true,
        test: { name: 'bundles', include: BUNDLE_FLOWS },
      },
      { extends: true, test: { name: 'browser', include: ['test/browser/**/*.test.ts'] } },
      // Issue 55: run by `npm test` after the others, on the log output they left (CURBSIDE_LOG_CAPTURE).
      ...(process.env.CURBSIDE_LOG_CHECK === '1'
        ? [{ extends: true as const, test: { name: 'logs', include: ['test/logs/**/*.test.ts'] } }]
        : []),
    ],
  },
});
