import { defineConfig } from 'vitest/config';

/**
 * Three projects, one run: `unit` (domain, store, functions, the laptop runtime's
 * parts, web logic, CDK), `integration` (API and WebSocket flows over the laptop
 * runtime, the benchmark's smoke run) and `browser` (screens in headless
 * Chromium). `npm test` runs all three; `npm test -- --project unit` the quick one.
 * DynamoDB Local starts once for the run (globalSetup); each test file gets
 * its own table (setupFiles). Workers stay modest: CI has 2 cores.
 */
export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/table-per-file.ts'],
    pool: 'forks',
    maxWorkers: 2,
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
            'infra/test/**/*.test.ts',
            'web/test/**/*.test.ts',
            'test/unit/**/*.test.ts',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/api/**/*.test.ts', 'test/ws/**/*.test.ts', 'test/bench/**/*.test.ts'],
        },
      },
      { extends: true, test: { name: 'browser', include: ['test/browser/**/*.test.ts'] } },
    ],
  },
});
