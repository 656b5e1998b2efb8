import { type AttributeValue, ScanCommand } from '@aws-sdk/client-dynamodb';
import { startDynamoLocal } from '@curbside/local';
import type { TestProject } from 'vitest/node';

type Dynamo = Awaited<ReturnType<typeof startDynamoLocal>>;

/**
 * One DynamoDB Local and one demo seed for the whole run, however many projects ask for them.
 * Vitest loads this file once per project (the three and the root), each a module of its own:
 * what they share lives on the main process's `globalThis`. (Module variables started four
 * DynamoDB Locals and seeded three times, one project after another: 18 s before the first
 * test file.)
 */
const shared = globalThis as typeof globalThis & {
  curbsideTestRun?: {
    dynamo?: Promise<Dynamo>;
    users: number;
    /** The demo seed's items. */
    seed?: Promise<Record<string, AttributeValue>[]>;
  };
};
shared.curbsideTestRun ??= { users: 0 };
const run = shared.curbsideTestRun;

/**
 * The demo seed as DynamoDB items: seeded once into a table of its own and
 * read back, so that each test file's server copies them in a few batch
 * writes (`startTestServer`) instead of seeding afresh (about 3 s a file on
 * a busy 2-core machine, most of it one write after another).
 */
const seedItems = async (endpoint: string, accessKeyId: string) => {
  const [{ ensureTable, localDynamoClient }, { seedIfEmpty }, { createDb }, { useTestHashCost }] =
    await Promise.all([
      import('@curbside/local'),
      import('@curbside/local/seed'),
      import('@curbside/store'),
      import('@curbside/functions/lib/passwords'),
    ]);
  // At the tests' cost, as every test file's server hashes and verifies (`table-per-file.ts`).
  useTestHashCost();
  const tableName = 'demo-seed';
  await ensureTable({ endpoint, tableName, accessKeyId });
  await seedIfEmpty(createDb({ table: tableName, endpoint, accessKeyId }));
  const client = localDynamoClient(endpoint, accessKeyId);
  const items: Record<string, AttributeValue>[] = [];
  let from: Record<string, AttributeValue> | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: from }));
    items.push(...(page.Items ?? []));
    from = page.LastEvaluatedKey;
  } while (from);
  client.destroy();
  return items;
};

/**
 * Starts one in-memory DynamoDB Local for the whole run (its access key id
 * goes to every test file), and for the projects that start servers, the
 * demo seed's items.
 */
export default async function setup(project: TestProject) {
  // The quick compiler only (no C2) and the serial collector: about a quarter less of
  // DynamoDB Local's CPU over the integration project (94 → 72 s measured), on the 2 cores
  // the whole run shares. The laptop runtime and the benchmark keep the JVM's defaults.
  run.dynamo ??= startDynamoLocal({
    inMemory: true,
    javaOptions: ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'],
  });
  run.users += 1;
  const { endpoint, accessKeyId } = await run.dynamo;
  project.provide('dynamoEndpoint', endpoint);
  project.provide('dynamoAccessKeyId', accessKeyId);
  project.provide('functionsFrom', project.name === 'bundles' ? 'dist' : 'sources');
  if (project.name !== 'unit') {
    run.seed ??= seedItems(endpoint, accessKeyId);
    project.provide('seedItems', await run.seed);
  }
  return async () => {
    run.users -= 1;
    if (run.users === 0) await (await run.dynamo)?.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    dynamoAccessKeyId: string;
    /** The demo seed's items (DynamoDB's own shape), for the integration and browser projects. */
    seedItems?: Record<string, AttributeValue>[];
    /** Where the laptop runtime loads the handlers from: the built bundles in project `bundles`. */
    functionsFrom: 'sources' | 'dist';
  }
}
