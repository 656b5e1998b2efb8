import type { createManagementClient } from '@curbside/functions/lib/publisher';
import { type RunningServer, startServer } from '@curbside/local';
import type { Db } from '@curbside/store';
import { afterAll, beforeAll } from 'vitest';
import { testConnectionsDb } from './server';

/**
 * The shared prologue of the WebSocket management API tests: the laptop runtime (unseeded) on
 * this file's tables, the file's live-connection table, and a management API client that posts
 * in process (as the laptop's handlers do). The bindings are live: a test file calls
 * `managementApiServer()` once at its top, and reads them in its tests.
 */
export let server: RunningServer;
export let db: Db;
export let client: ReturnType<typeof createManagementClient>;

/** The laptop runtime on a free port, on this test file's tables, without the demo seed. */
export const startBareServer = () =>
  startServer({
    port: 0,
    tableName: process.env.TABLE_NAME as string,
    dynamoEndpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB as string,
  });

export const managementApiServer = () => {
  beforeAll(async () => {
    db = testConnectionsDb();
    server = await startBareServer();
    const { createManagementClient } = await import('@curbside/functions/lib/publisher');
    client = createManagementClient(server.url, undefined, { inProcess: true });
  });
  afterAll(async () => {
    client?.destroy();
    await server?.close();
  });
};
