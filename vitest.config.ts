import { defineConfig } from 'vitest/config';

/**
 * Every test tier in one run. DynamoDB Local starts once (globalSetup); each
 * test file gets its own table (setupFiles). Workers stay modest: CI has 2 cores.
 */
export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/table-per-file.ts'],
    include: [
      'packages/*/test/**/*.test.ts',
      'functions/test/**/*.test.ts',
      'infra/test/**/*.test.ts',
      'test/**/*.test.ts',
      'web/test/**/*.test.ts',
    ],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll's own default (1 s) is shorter than a first page load on a busy 2-core CI machine.
    expect: { poll: { timeout: 10_000 } },
    env: { LOG_LEVEL: 'silent', AWS_REGION: 'us-east-1' },
  },
});
