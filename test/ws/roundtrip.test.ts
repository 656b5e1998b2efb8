import { channels } from '@curbside/api';
import type { Publisher } from '@curbside/functions/lib/publisher';
import type { RunningServer } from '@curbside/local';
import { connections, type Db } from '@curbside/store';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { eventually, type LiveClient, openLive } from '../support/live';
import { startBareServer } from '../support/management-api';
import { testConnectionsDb } from '../support/server';

let server: RunningServer;
let db: Db;
let publisher: Publisher;
const clients: LiveClient[] = [];

/** A connection time past the connecting grace: a post that finds it gone removes it. */
const aMinuteAgo = () => new Date(Date.now() - 60_000).toISOString();

const open = async () => {
  const client = await openLive(server.url);
  clients.push(client);
  return client;
};

beforeAll(async () => {
  db = testConnectionsDb();
  server = await startBareServer();
  // Imported only now: the functions' configuration is read once, when first loaded,
  // and WS_MANAGEMENT_ENDPOINT is known only once the server listens.
  const { createManagementClient, createPublisher } = await import('@curbside/functions/lib/publisher');
  publisher = createPublisher({
    db,
    client: createManagementClient(server.url, undefined, { inProcess: true }),
  });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  // Every `$disconnect` has removed its row before the next test counts connections.
  await eventually(async () => (await connections.inChannel(db, channels.public())).length === 0);
});

afterAll(async () => {
  await server?.close();
});

describe('live connection through the laptop WebSocket gateway', () => {
  it('stores each connection at $connect, before the socket opens', async () => {
    const client = await open();
    const ids = await connections.inChannel(db, channels.public());
    expect(ids).toHaveLength(1);
    const stored = await connections.get(db, ids[0] as string);
    expect(stored).toMatchObject({ channels: [channels.public()], userId: null });
    expect(client.socket.readyState).toBe(WebSocket.OPEN);
  });

  it('delivers a published event to every client of the channel', async () => {
    const [a, b] = await Promise.all([open(), open()]);
    const event = {
      type: 'BUS_LOCATION_UPDATE',
      data: { busId: 'B3', location: { latitude: 40.1, longitude: -75.2, timestamp: 1 } },
    } as const;
    const result = await publisher.publish(channels.public(), event);
    expect(result).toEqual({ sent: 2, gone: 0, failed: 0 });
    expect(await a?.take()).toEqual(event);
    expect(await b?.take()).toEqual(event);
  });

  it('answers {"type":"ping"} with {"type":"pong"} on that connection only', async () => {
    const [a, b] = await Promise.all([open(), open()]);
    a?.socket.send(JSON.stringify({ type: 'ping' }));
    expect(await a?.take()).toEqual({ type: 'pong' });
    await expect(b?.take(300)).rejects.toThrow(/No message/);
  });

  it('answers an unparseable message with an error and keeps the socket open', async () => {
    const client = await open();
    client.socket.send('this is {not json');
    expect(await client.take()).toEqual({ type: 'error', error: 'A message must be JSON' });
    client.socket.send(JSON.stringify({ type: 'ping' }));
    expect(await client.take()).toEqual({ type: 'pong' });
    expect(client.socket.readyState).toBe(WebSocket.OPEN);
    expect(client.inbox).toEqual([]);
  });

  it.each([
    ['an unknown message', { type: 'SHOUT' }, { type: 'error', error: 'Unknown message' }],
    [
      'a position off the globe',
      {
        type: 'BUS_LOCATION_UPDATE',
        data: { busId: 'B3', location: { latitude: 91, longitude: 0, timestamp: 1 } },
      },
      { type: 'error', action: 'BUS_LOCATION_UPDATE', error: 'Invalid latitude' },
    ],
  ])('answers %s with what is wrong, and the socket keeps working', async (_, message, answer) => {
    const client = await open();
    client.socket.send(JSON.stringify(message));
    expect(await client.take()).toEqual(answer);
    client.socket.send(JSON.stringify({ type: 'ping' }));
    expect(await client.take()).toEqual({ type: 'pong' });
  });

  it('removes a connection whose socket is gone (GoneException) and still reaches the others', async () => {
    const client = await open();
    await connections.put(db, {
      connectionId: 'ghost-connection',
      channels: [channels.public()],
      userId: null,
      connectedAt: aMinuteAgo(),
    });
    const event = { type: 'BUS_TRACKING_STOPPED', data: { busId: 'B1' } } as const;
    const result = await publisher.publish(channels.public(), event);
    expect(result).toEqual({ sent: 1, gone: 1, failed: 0 });
    expect(await client.take()).toEqual(event);
    expect(await connections.get(db, 'ghost-connection')).toBeUndefined();
    expect(await connections.inChannel(db, channels.public())).not.toContain('ghost-connection');
  });

  it('treats a client that dropped before its $disconnect ran as gone', async () => {
    const client = await open();
    const [id] = await connections.inChannel(db, channels.public());
    client.socket.terminate();
    // The server has seen the close once its `$disconnect` removed the row.
    await eventually(async () => (await connections.get(db, id as string)) === undefined);
    // Put the row back as if `$disconnect` had never run (it is best effort in AWS).
    await connections.put(db, {
      connectionId: id as string,
      channels: [channels.public()],
      userId: null,
      connectedAt: aMinuteAgo(),
    });
    const result = await publisher.send([id as string], { type: 'pong' });
    expect(result).toEqual({ sent: 0, gone: 1, failed: 0 });
    expect(await connections.get(db, id as string)).toBeUndefined();
  });

  it('keeps a connection still connecting (its row just written, its socket not open) when a post finds it gone', async () => {
    // As while `$connect` runs: API Gateway answers 410 to a post until the handler has answered.
    await connections.put(db, {
      connectionId: 'still-connecting',
      channels: [channels.public()],
      userId: null,
      connectedAt: new Date().toISOString(),
    });
    const event = { type: 'BUS_TRACKING_STOPPED', data: { busId: 'B1' } } as const;
    expect(await publisher.publish(channels.public(), event)).toEqual({ sent: 0, gone: 1, failed: 0 });
    expect(await connections.inChannel(db, channels.public())).toEqual(['still-connecting']);
    await connections.remove(db, 'still-connecting');
  });

  it('runs $disconnect when a client closes, removing its row', async () => {
    const client = await open();
    const [id] = await connections.inChannel(db, channels.public());
    await client.close();
    await eventually(async () => (await connections.get(db, id as string)) === undefined);
    // The row and its channel memberships go in parallel: wait for both.
    await eventually(async () => (await connections.inChannel(db, channels.public())).length === 0);
    expect(await connections.inChannel(db, channels.public())).toEqual([]);
  });
});
