import { randomUUID } from 'node:crypto';
import { expect, inject, vi } from 'vitest';
import { captureLogs } from './log-capture';

/**
 * Runs before each test file. A worker runs many files, one after another, in one process
 * (`isolate: false`, vitest.config.ts): what one file changed must not reach the next. So each
 * file starts with
 * - this repository's modules evaluated afresh (`vi.resetModules`: their module state, such as
 *   the handlers' caches and the table handle made from TABLE_NAME, is the file's own), while
 *   the packages under node_modules (the AWS SDK, Playwright), loaded once, stay loaded;
 * - the environment the worker started with (a file's own variables are gone);
 * - real timers and no spy left over.
 */
const worker = globalThis as typeof globalThis & { curbsideStartEnv?: Record<string, string | undefined> };
worker.curbsideStartEnv ??= { ...process.env };
for (const name of Object.keys(process.env)) {
  if (!(name in worker.curbsideStartEnv)) delete process.env[name];
}
Object.assign(process.env, worker.curbsideStartEnv);
vi.resetModules();
vi.useRealTimers();
vi.restoreAllMocks();

/**
 * Then it points the process at DynamoDB Local (under the run's access key id) and at a data
 * table and a connection table of this file's own. Refuses to run against anything but
 * localhost, so a test can never touch real AWS. The files of pure rules (domain, web logic,
 * the import-cycle check) touch no database: they get no tables, and do not load the SDK.
 * Password hashes are made at the tests' low cost (`useTestHashCost`).
 */
const PURE = /[\\/](packages[\\/]domain[\\/]test|web[\\/]test|test[\\/]unit|test[\\/]logs)[\\/]/;

captureLogs(expect.getState().testPath ?? '');
// Project `bundles`: the laptop runtime loads the built function bundles (issue 55).
if (inject('functionsFrom') === 'dist') process.env.CURBSIDE_FUNCTIONS = 'dist';

const endpoint = inject('dynamoEndpoint');
if (!/^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/.test(endpoint)) {
  throw new Error(`Tests only run against a local DynamoDB endpoint, not ${endpoint}`);
}
if (!PURE.test(expect.getState().testPath ?? '')) {
  const [{ ensureTable }, { connectionTableNameFor, LOCAL_KEY_ID_VARIABLE }, { useTestHashCost }] =
    await Promise.all([
      import('@curbside/local'),
      import('@curbside/store'),
      import('@curbside/functions/lib/passwords'),
    ]);
  // Passwords hash at a test's cost (the demo seed's too, `global-setup.ts`): a sign-in at the
  // real cost takes 0.3 s of a core, and the suite signs in hundreds of times.
  useTestHashCost();
  const tableName = `test-${randomUUID()}`;
  process.env[LOCAL_KEY_ID_VARIABLE] = inject('dynamoAccessKeyId');
  process.env.AWS_ENDPOINT_URL_DYNAMODB = endpoint;
  process.env.TABLE_NAME = tableName;
  process.env.CONNECTION_TABLE_NAME = connectionTableNameFor(tableName);
  await ensureTable({ endpoint, tableName });
  await ensureTable({ endpoint, tableName: connectionTableNameFor(tableName), kind: 'connections' });
}
