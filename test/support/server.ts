import { BatchWriteItemCommand } from '@aws-sdk/client-dynamodb';
import { cleverSettings, type FakeClever, localDynamoClient, startServer } from '@curbside/local';
import { seedIfEmpty } from '@curbside/local/seed';
import type { Db } from '@curbside/store';
import { inject } from 'vitest';
import { testConnectionsDb, testDb } from '../../packages/store/test/fixtures/db';

export { testConnectionsDb };

/**
 * The laptop runtime on a free port, on this test file's own tables, seeded
 * with the demo data.
 */
export const startTestServer = async (
  options: { seed?: boolean; webDist?: string; clever?: FakeClever } = {},
) => {
  if (options.clever) useClever(options.clever);
  const tableName = process.env.TABLE_NAME as string;
  const dynamoEndpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB as string;
  const db: Db = testDb();
  const connectionsDb = testConnectionsDb();
  if (options.seed !== false) await seed(db, tableName, dynamoEndpoint);
  const server = await startServer({
    port: 0,
    tableName,
    connectionTableName: process.env.CONNECTION_TABLE_NAME as string,
    dynamoEndpoint,
    runSchedules: false,
    demo: options.seed !== false,
    ...(options.webDist ? { webDist: options.webDist } : {}),
  });
  return { ...server, db, connectionsDb };
};

/**
 * The demo seed in this file's table: the run's seed items copied in batch
 * writes (see `global-setup.ts`), or seeded afresh where the run has none.
 */
const seed = async (db: Db, tableName: string, endpoint: string) => {
  const items = inject('seedItems');
  if (!items) {
    await seedIfEmpty(db);
    return;
  }
  // This file's DynamoDB Local key (set by table-per-file.ts).
  const client = localDynamoClient(endpoint);
  try {
    const batches = Array.from({ length: Math.ceil(items.length / 25) }, (_, i) =>
      items.slice(i * 25, i * 25 + 25),
    );
    await Promise.all(
      batches.map(async (batch) => {
        let requests = batch.map((Item) => ({ PutRequest: { Item } }));
        while (requests.length > 0) {
          const { UnprocessedItems } = await client.send(
            new BatchWriteItemCommand({ RequestItems: { [tableName]: requests } }),
          );
          requests = (UnprocessedItems?.[tableName] ?? []) as typeof requests;
        }
      }),
    );
  } finally {
    client.destroy();
  }
};

/** Points single sign-on and the roster import at a fake Clever (`startFakeClever()` from @curbside/local). */
export const useClever = (clever: FakeClever) => Object.assign(process.env, cleverSettings(clever));

export { type Answer, Client, signedIn } from './client';
