/**
 * The emulated WebSocket API writes a fan-out's posts in turns of the event loop (h54m): a request
 * that arrived during a fan-out is served before the fan-out's last post, every screen still gets
 * its messages in the order they were posted, and what was accepted goes out before the sockets close.
 */
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createWebSocketGateway, POSTS_PER_TURN, type WebSocketGateway } from '../src/websocket';

const SCREENS = 3 * POSTS_PER_TURN + 4;

let gateway: WebSocketGateway;
let server: Server;
let screens: { socket: WebSocket; received: string[]; id: string }[] = [];
let requestSeen: (() => void) | undefined;
let gatewayClosed = false;

const bytes = (text: string) => new TextEncoder().encode(text);

/** Posts `text` to each connection, as a fan-out does, in the same turn; answers the statuses. */
const fanOut = (ids: readonly string[], text: string) =>
  ids.map((id) => gateway.answer('POST', id, bytes(text)).then((answer) => answer.status));

/** A server with the gateway (every `$connect` accepted) and `SCREENS` open screens. */
const open = async () => {
  gateway = createWebSocketGateway({ invoke: async () => ({ statusCode: 200 }) });
  server = createServer((_request, response) => {
    requestSeen?.();
    response.end('{}');
  });
  server.on('upgrade', (request, socket, head) => gateway.upgrade(request, socket, head));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  screens = await Promise.all(
    Array.from({ length: SCREENS }, async () => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`);
      const received: string[] = [];
      socket.on('message', (data) => received.push(String(data)));
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      return { socket, received, id: '' };
    }),
  );
  await expect.poll(() => gateway.connections.size).toBe(SCREENS);
  // Each screen learns its connection id (its first message), then starts afresh.
  await Promise.all([...gateway.connections.keys()].map((id) => gateway.answer('POST', id, bytes(id))));
  await expect.poll(() => screens.every((screen) => screen.received.length === 1)).toBe(true);
  for (const screen of screens) screen.id = screen.received.shift() as string;
  return port;
};

afterEach(async () => {
  requestSeen = undefined;
  for (const { socket } of screens) socket.terminate();
  if (!gatewayClosed) await gateway.close();
  gatewayClosed = false;
  await new Promise((resolve) => server.close(resolve));
});

describe('a fan-out on the laptop runtime', () => {
  it('lets a request that arrived meanwhile in before its last post', async () => {
    const port = await open();
    const ids = [...gateway.connections.keys()];
    const caller = connect(port, '127.0.0.1');
    await new Promise((resolve) => caller.once('connect', resolve));
    // Each write to a screen's socket counted as it happens (the server side's sockets).
    let written = 0;
    for (const { socket } of gateway.connections.values()) {
      const send = socket.send.bind(socket);
      socket.send = ((...args: Parameters<typeof send>) => {
        written++;
        return send(...args);
      }) as typeof socket.send;
    }
    let writtenWhenServed = -1;
    const served = new Promise<void>((resolve) => {
      requestSeen = () => {
        writtenWhenServed = written;
        resolve();
      };
    });
    // The request is in the server's socket before the fan-out starts, in this same turn.
    caller.write('GET /poll HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    const posts = fanOut(ids, 'A');
    await served;
    await Promise.all(posts);
    await expect.poll(() => written).toBe(ids.length);
    caller.destroy();
    expect(writtenWhenServed).toBeGreaterThanOrEqual(0);
    expect(writtenWhenServed).toBeLessThan(ids.length);
  });

  it('keeps each screen’s messages in the order they were posted, across fan-outs', async () => {
    await open();
    const ids = [...gateway.connections.keys()];
    const some = ids.filter((_, i) => i % 3 === 0);
    const statuses = await Promise.all([
      ...fanOut(ids, '1'),
      ...fanOut(some, '2'),
      ...fanOut(ids, '3'),
      ...fanOut(ids.slice(-5), '4'),
    ]);
    expect(statuses.every((status) => status === 200)).toBe(true);
    await expect
      .poll(() => screens.reduce((sum, screen) => sum + screen.received.length, 0))
      .toBe(ids.length * 2 + some.length + 5);
    ids.forEach((id, i) => {
      const expected = ['1', ...(i % 3 === 0 ? ['2'] : []), '3', ...(i >= ids.length - 5 ? ['4'] : [])];
      expect(screens.find((screen) => screen.id === id)?.received).toEqual(expected);
    });
  });

  it('delivers every post it accepted before the gateway closes its sockets', async () => {
    await open();
    const ids = [...gateway.connections.keys()];
    const closedAfter = screens.map(
      ({ socket, received }) =>
        new Promise<string[]>((resolve) => socket.once('close', () => resolve([...received]))),
    );
    const statuses = await Promise.all(fanOut(ids, 'A'));
    expect(statuses.every((status) => status === 200)).toBe(true);
    await gateway.close();
    gatewayClosed = true;
    for (const received of await Promise.all(closedAfter)) expect(received).toEqual(['A']);
  });
});
