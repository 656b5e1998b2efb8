/**
 * `tsx packages/local/src/main.ts [--in-memory]`: Curbside on a laptop, on
 * PORT (default 3000). With AWS_ENDPOINT_URL_DYNAMODB set (LocalStack, say),
 * it uses that DynamoDB instead of starting DynamoDB Local.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDb } from '@curbside/store';
import { announceEndpoint, type DynamoLocal, ensureTable, startDynamoLocal } from './dynamo';
import { cleverSettings, type FakeClever, startFakeClever } from './fake-clever';
import { type RunningServer, startServer } from './gateway';
import { assignDemoClever, seedIfEmpty } from './seed';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const inMemory = process.argv.includes('--in-memory');
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
  if (!externalDynamo)
    dynamo = await startDynamoLocal(inMemory ? { inMemory: true } : { dataDir: join(root, '.data') });
  const dynamoEndpoint = externalDynamo ?? (dynamo as DynamoLocal).endpoint;
  // `npm run admin` finds the running database here (an in-memory one is nobody else's).
  if (dynamo && !inMemory) {
    unannounce = announceEndpoint(join(root, '.data'), dynamoEndpoint);
    process.on('exit', () => unannounce()); // a second Ctrl-C leaves at once
  }
  await ensureTable({ endpoint: dynamoEndpoint, tableName });

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
  });
  const shown = host === '127.0.0.1' || host === '0.0.0.0' ? 'localhost' : host;
  const where = externalDynamo
    ? ` (DynamoDB at ${externalDynamo})`
    : inMemory
      ? ' (in memory: data is not kept)'
      : '';
  console.log(`Curbside is running at http://${shown}:${server.port}${where}`);
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
