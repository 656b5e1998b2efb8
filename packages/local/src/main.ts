/**
 * `tsx packages/local/src/main.ts [--in-memory] [--workers N]`: Curbside on a
 * laptop, on PORT (default 3000). With `--workers N` each function runs in
 * worker threads, at most N per function; by default (0) every handler runs
 * on the main thread. With AWS_ENDPOINT_URL_DYNAMODB set (LocalStack, say), it
 * uses that DynamoDB instead of starting DynamoDB Local.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { handlerModules } from '@curbside/functions/handlers';
import { createDb, dismissalChanges, dismissalPlans } from '@curbside/store';
import { announceEndpoint, type DynamoLocal, ensureTable, startDynamoLocal } from './dynamo';
import { cleverSettings, type FakeClever, startFakeClever } from './fake-clever';
import { type RunningServer, startServer } from './gateway';
import { assignDemoClever, seedIfEmpty } from './seed';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const inMemory = process.argv.includes('--in-memory');
/** `--workers N` or `--workers=N`: worker threads per function at most. */
const workersArg = (() => {
  const at = process.argv.findIndex((arg) => arg === '--workers' || arg.startsWith('--workers='));
  if (at < 0) return undefined;
  const arg = process.argv[at] as string;
  return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : process.argv[at + 1];
})();
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';
const tableName = process.env.TABLE_NAME ?? 'curbside';
const externalDynamo = process.env.AWS_ENDPOINT_URL_DYNAMODB || undefined;

let dynamo: DynamoLocal | undefined;
/** Removes `.data/dynamodb-endpoint` (see `announceEndpoint`). */
let unannounce = () => {};
let server: RunningServer | undefined;
let clever: FakeClever | undefined;

const shutdown = async (code: number) => {
  try {
    await server?.close();
    await clever?.close();
  } finally {
    unannounce();
    await dynamo?.stop();
    process.exit(code);
  }
};

let stopping = false;
const onSignal = () => {
  if (stopping) process.exit(1); // a second Ctrl-C: leave now (the exit hook still kills Java)
  stopping = true;
  console.log('\nStopping Curbside…');
  void shutdown(0);
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

try {
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, not ${process.env.PORT}`);
  // One thread unless asked: on 2 cores the pools double the server's CPU (each worker compiles
  // the AWS SDK for itself) and answer slower (README, ADR 0018's issue 33 addendum).
  const workers = workersArg === undefined ? 0 : Number(workersArg);
  if (!(Number.isInteger(workers) && workers >= 0 && workers <= 64))
    throw new Error(`--workers must be a whole number from 0 to 64, not ${workersArg}`);
  if (!externalDynamo)
    dynamo = await startDynamoLocal(inMemory ? { inMemory: true } : { dataDir: join(root, '.data') });
  const dynamoEndpoint = externalDynamo ?? (dynamo as DynamoLocal).endpoint;
  // `npm run admin` finds the running database here (an in-memory one is nobody else's).
  if (dynamo && !inMemory) {
    unannounce = announceEndpoint(join(root, '.data'), dynamoEndpoint);
    process.on('exit', () => unannounce()); // a second Ctrl-C leaves at once
  }
  await ensureTable({ endpoint: dynamoEndpoint, tableName });

  // Issue 54: the laptop's changes written before the one index by last day get their place in it, once.
  await dismissalChanges.moveToLastDayIndex(createDb({ table: tableName, endpoint: dynamoEndpoint }), {
    once: true,
  });
  // Issue 54: the laptop's weekly plans written before the buses' riders items are listed on them, once.
  await dismissalPlans.fillBusRiders(createDb({ table: tableName, endpoint: dynamoEndpoint }), {
    once: true,
  });
  if (await seedIfEmpty(createDb({ table: tableName, endpoint: dynamoEndpoint }))) {
    console.log(
      'Seeded the demo district: sign in as front_demo, teacher_demo, admin_demo … (password demo1234)',
    );
  }

  // Clever, for single sign-on and the roster import: the fake one in the repository unless
  // CLEVER_CLIENT_ID points at a real Clever app (CURBSIDE_FAKE_CLEVER=0 leaves Clever off).
  if (!process.env.CLEVER_CLIENT_ID && process.env.CURBSIDE_FAKE_CLEVER !== '0') {
    clever = await startFakeClever({ port: Number(process.env.FAKE_CLEVER_PORT ?? 0) });
    Object.assign(process.env, cleverSettings(clever));
    // As the super admin would: the fake Clever's district is the demo district's (district_demo imports it).
    await assignDemoClever(createDb({ table: tableName, endpoint: dynamoEndpoint }), clever.districtId);
  }

  server = await startServer({
    port,
    host,
    tableName,
    dynamoEndpoint,
    webDist: join(root, 'web', 'dist'),
    runSchedules: true,
    demo: true,
    workers,
    // The emulated SES keeps each message under .data/mail (/dev/mail lists them); in memory with --in-memory.
    ...(inMemory ? {} : { mailDir: join(root, '.data', 'mail') }),
  });
  const shown = host === '127.0.0.1' || host === '0.0.0.0' ? 'localhost' : host;
  const where = externalDynamo
    ? ` (DynamoDB at ${externalDynamo})`
    : inMemory
      ? ' (in memory: data is not kept)'
      : '';
  console.log(`Curbside is running at http://${shown}:${server.port}${where}`);
  console.log(`Email it sends (parent invites) is kept here: http://${shown}:${server.port}/dev/mail`);
  // One warm worker per function, in the background: the first tap of the day is not a cold start.
  void server.workers
    ?.warm(
      handlerModules().map((module) => module.source.replace(/^src\//, '').replace(/\.ts$/, '')),
      1,
    )
    .catch((error: unknown) => console.error(`Warming the functions failed: ${(error as Error).message}`));
  if (clever) console.log(`A test Clever (single sign-on, roster import) is running at ${clever.url}`);
} catch (error) {
  const busy = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
  console.error(
    busy
      ? `Port ${port} is already in use. Stop the other process or start with another port: PORT=3001 npm start`
      : `Curbside could not start: ${(error as Error).message}`,
  );
  unannounce();
  await dynamo?.stop();
  process.exit(1);
}
