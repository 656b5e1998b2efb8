import {
  DeleteConnectionCommand,
  GetConnectionCommand,
  GoneException,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';
import { channels } from '@curbside/api';
import { createManagementClient } from '@curbside/functions/lib/publisher';
import { connections } from '@curbside/store';
import { describe, expect, it } from 'vitest';
import { eventually, openLive } from '../support/live';
import { client, db, managementApiServer, server } from '../support/management-api';

managementApiServer();

/** The id the server gave the only open connection of this file's table. */
const onlyConnectionId = async () => {
  const ids = await connections.inChannel(db, channels.public());
  expect(ids).toHaveLength(1);
  return ids[0] as string;
};

describe('the management API answers the real ApiGatewayManagementApiClient', () => {
  it('PostToConnection sends the bytes as one text frame', async () => {
    const live = await openLive(server.url);
    const id = await onlyConnectionId();
    expect(id).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const data = new TextEncoder().encode(JSON.stringify({ type: 'QUEUE_UPDATE', data: { n: 'Zoë' } }));
    await client.send(new PostToConnectionCommand({ ConnectionId: id, Data: data }));
    expect(await live.take()).toEqual({ type: 'QUEUE_UPDATE', data: { n: 'Zoë' } });
    await live.close();
    await eventually(async () => (await connections.get(db, id)) === undefined);
  });

  it('PostToConnection to an unknown or closed connection throws GoneException', async () => {
    await expect(
      client.send(
        new PostToConnectionCommand({ ConnectionId: 'no-such-connection', Data: new Uint8Array([1]) }),
      ),
    ).rejects.toBeInstanceOf(GoneException);

    const live = await openLive(server.url);
    const id = await onlyConnectionId();
    await live.close();
    await expect(
      client.send(new PostToConnectionCommand({ ConnectionId: id, Data: new Uint8Array([1]) })),
    ).rejects.toMatchObject({ name: 'GoneException', $metadata: { httpStatusCode: 410 } });
    await eventually(async () => (await connections.get(db, id)) === undefined);
  });

  it('GetConnection answers when the connection opened and who it is', async () => {
    const before = Date.now();
    const live = await openLive(server.url, { headers: { 'user-agent': 'curbside-test-agent' } });
    const id = await onlyConnectionId();
    const answer = await client.send(new GetConnectionCommand({ ConnectionId: id }));
    expect(answer.ConnectedAt).toBeInstanceOf(Date);
    expect(answer.ConnectedAt?.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(answer.ConnectedAt?.getTime()).toBeLessThanOrEqual(Date.now());
    expect(answer.LastActiveAt).toBeInstanceOf(Date);
    expect(answer.Identity).toEqual({ SourceIp: '127.0.0.1', UserAgent: 'curbside-test-agent' });
    await live.close();
    await eventually(async () => (await connections.get(db, id)) === undefined);
    await expect(client.send(new GetConnectionCommand({ ConnectionId: id }))).rejects.toBeInstanceOf(
      GoneException,
    );
  });

  it('DeleteConnection closes the socket and its $disconnect removes the row', async () => {
    const live = await openLive(server.url);
    const id = await onlyConnectionId();
    const closed = new Promise<number>((resolve) => live.socket.once('close', resolve));
    await client.send(new DeleteConnectionCommand({ ConnectionId: id }));
    expect(await closed).toBe(1000);
    await eventually(async () => (await connections.get(db, id)) === undefined);
    await expect(client.send(new DeleteConnectionCommand({ ConnectionId: id }))).rejects.toBeInstanceOf(
      GoneException,
    );
  });

  it('has no HTTP route: no other process or machine can post to, read or close a connection', async () => {
    const live = await openLive(server.url);
    const id = await onlyConnectionId();
    const forged = {
      authorization:
        'AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/execute-api/aws4_request, SignedHeaders=host, Signature=00',
      'content-type': 'application/json',
    };
    const url = `${server.url}/@connections/${encodeURIComponent(id)}`;
    for (const method of ['POST', 'GET', 'DELETE']) {
      const response = await fetch(url, {
        method,
        headers: forged,
        ...(method === 'POST'
          ? { body: JSON.stringify({ type: 'ALERT_CREATED', data: { fake: true } }) }
          : {}),
      });
      const text = await response.text();
      expect(response.status === 405 || (method === 'GET' && !text.includes('connectedAt')), method).toBe(
        true,
      );
    }
    // Even a request the real SDK signs, sent over HTTP, reaches nothing.
    const overHttp = createManagementClient(server.url);
    await expect(
      overHttp.send(new PostToConnectionCommand({ ConnectionId: id, Data: new TextEncoder().encode('{}') })),
    ).rejects.toThrow();
    overHttp.destroy();
    expect(live.socket.readyState).toBe(live.socket.OPEN);
    expect(live.inbox).toEqual([]);
    await live.close();
  });
});
