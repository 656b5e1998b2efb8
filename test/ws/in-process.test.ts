import {
  DeleteConnectionCommand,
  GetConnectionCommand,
  GoneException,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';
import { channels } from '@curbside/api';
import { connections } from '@curbside/store';
import { describe, expect, it } from 'vitest';
import { eventually, openLive } from '../support/live';
import { client, db, managementApiServer, server } from '../support/management-api';

managementApiServer();

const ids = () => connections.inChannel(db, channels.public());

describe('the management API in-process (the handlers of the laptop runtime post through it)', () => {
  it('delivers each post to its own connection, as over HTTP', async () => {
    const [a, b] = await Promise.all([openLive(server.url), openLive(server.url)]);
    const [first, second] = (await ids()) as [string, string];
    const send = (to: string) =>
      client.send(
        new PostToConnectionCommand({
          ConnectionId: to,
          Data: new TextEncoder().encode(JSON.stringify({ to })),
        }),
      );
    // Concurrent posts of the same command class (the client resolves its middleware once).
    await Promise.all([send(first), send(second), send(first)]);
    await eventually(async () => a.inbox.length + b.inbox.length === 3);
    const targets = (inbox: unknown[]) => [
      ...new Set(inbox.map((message) => (message as { to: string }).to)),
    ];
    // Each socket got only the posts addressed to it: two for one id, one for the other.
    expect(targets(a.inbox)).toHaveLength(1);
    expect(targets(b.inbox)).toHaveLength(1);
    expect([a.inbox.length, b.inbox.length].sort()).toEqual([1, 2]);
    expect(targets([...a.inbox, ...b.inbox]).sort()).toEqual([first, second].sort());
    await Promise.all([a.close(), b.close()]);
    await eventually(async () => (await ids()).length === 0);
  });

  it('answers an unknown or closed connection with GoneException, and gets and deletes connections', async () => {
    await expect(
      client.send(
        new PostToConnectionCommand({ ConnectionId: 'no-such-connection', Data: new Uint8Array([1]) }),
      ),
    ).rejects.toBeInstanceOf(GoneException);
    const live = await openLive(server.url, { headers: { 'user-agent': 'in-process-agent' } });
    const [id] = await ids();
    const answer = await client.send(new GetConnectionCommand({ ConnectionId: id as string }));
    expect(answer.Identity).toEqual({ SourceIp: '127.0.0.1', UserAgent: 'in-process-agent' });
    const closed = new Promise<number>((resolve) => live.socket.once('close', resolve));
    await client.send(new DeleteConnectionCommand({ ConnectionId: id as string }));
    expect(await closed).toBe(1000);
    await expect(
      client.send(new PostToConnectionCommand({ ConnectionId: id as string, Data: new Uint8Array([1]) })),
    ).rejects.toMatchObject({ name: 'GoneException', $metadata: { httpStatusCode: 410 } });
  });
});
