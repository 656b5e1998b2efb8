import { PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import { channels } from '@curbside/api';
import { createManagementClient, createPublisher } from '@curbside/functions/lib/publisher';
import { grantOf, type RunningServer, startServer } from '@curbside/local';
import { access, connections } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLive } from '../support/live';
import { testConnectionsDb } from '../support/server';

/**
 * The laptop runtime runs each handler with its function's access in AWS:
 * only the functions that publish may use the management API.
 */
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({
    port: 0,
    tableName: process.env.TABLE_NAME as string,
    connectionTableName: process.env.CONNECTION_TABLE_NAME as string,
    dynamoEndpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB as string,
  });
});
afterAll(async () => {
  await server?.close();
});

describe('a handler on the laptop', () => {
  it('runs with the access of its function in AWS', () => {
    expect(grantOf('http/login')).toMatchObject({ name: 'http-auth', manageConnections: true });
    expect(grantOf('http/getSchool')).toMatchObject({ name: 'http-admin', manageConnections: true });
    expect(grantOf('http/sisDistricts')).toMatchObject({ name: 'http-sis', manageConnections: false });
    expect(grantOf('ws/connect').name).toBe('ws');
    expect(grantOf('scheduled/end-sessions').name).toBe('scheduled');
    expect(grantOf('http/sisDistricts').tables[process.env.CONNECTION_TABLE_NAME as string]).toEqual([]);
  });

  /** A new anonymous screen, its connection id (not an earlier test's) and a management client. */
  const openScreen = async () => {
    const db = testConnectionsDb();
    const before = new Set(await connections.inChannel(db, channels.public()));
    const live = await openLive(server.url);
    let id: string | undefined;
    await expect
      .poll(async () => {
        id = (await connections.inChannel(db, channels.public())).find((each) => !before.has(each));
        return id;
      })
      .toBeDefined();
    const client = createManagementClient(server.url, undefined, { inProcess: true });
    return { db, live, id: id as string, client };
  };

  it('of a function that does not publish is refused the management API, as AWS would', async () => {
    const { live, id, client } = await openScreen();
    const post = (module: string) =>
      access.run(grantOf(module), () =>
        client.send(
          new PostToConnectionCommand({ ConnectionId: id, Data: new TextEncoder().encode('{"type":"x"}') }),
        ),
      );
    await expect(post('http/sisDistricts')).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
    await post('http/addToQueue');
    expect(await live.take()).toEqual({ type: 'x' });
    await live.close();
    client.destroy();
  });

  it("posts through the publisher's in-process path with the same refusal, delivery and gone answers", async () => {
    const { db, live, id, client } = await openScreen();
    const publisher = createPublisher({ db, client, inProcessEndpoint: server.url });
    const send = (module: string) =>
      access.run(grantOf(module), () =>
        publisher.send([id], { type: 'ALERT_DISMISSED', data: { id: 7, removed: true } } as never),
      );
    expect(await send('http/sisDistricts')).toEqual({ sent: 0, gone: 0, failed: 1 });
    expect(await send('http/addToQueue')).toEqual({ sent: 1, gone: 0, failed: 0 });
    expect(await live.take()).toEqual({ type: 'ALERT_DISMISSED', data: { id: 7, removed: true } });
    await live.close();
    await expect
      .poll(() => send('http/addToQueue'), { timeout: 10_000 })
      .toEqual({ sent: 0, gone: 1, failed: 0 });
    client.destroy();
  });
});
