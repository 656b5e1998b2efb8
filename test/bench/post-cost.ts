/**
 * The server thread's CPU for one fan-out of 240 posts on the laptop runtime (h54m): through the
 * publisher as the handlers post (its bounded loop, a promise and the meter's counters a post,
 * the IAM check, the gateway's write) against the gateway's writes alone, meter off and on.
 * Every post written at once (`postsPerTurn: Infinity`), so a fan-out is all in one stretch.
 *
 *   npx tsx test/bench/post-cost.ts
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { registerInProcessManagement } from '@curbside/functions/lib/in-process';
import { createManagementClient, createPublisher } from '@curbside/functions/lib/publisher';
import { type Db, meter } from '@curbside/store';
import { WebSocket } from 'ws';
import { inProcessTransport } from '../../packages/local/src/management';
import { createWebSocketGateway } from '../../packages/local/src/websocket';

const gateway = createWebSocketGateway({
  invoke: async () => ({ statusCode: 200 }),
  postsPerTurn: Number.POSITIVE_INFINITY,
});
const server = createServer((_q, r) => r.end());
server.on('upgrade', (a, b, c) => gateway.upgrade(a, b, c));
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const port = (server.address() as AddressInfo).port;
const endpoint = `http://127.0.0.1:${port}`;
registerInProcessManagement(endpoint, inProcessTransport(gateway.answer));
const publisher = createPublisher({
  db: {} as Db,
  client: createManagementClient(endpoint, 'us-east-1', { inProcess: true }),
  inProcessEndpoint: endpoint,
});
const sockets = await Promise.all(
  Array.from({ length: 240 }, async () => {
    const s = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    s.on('message', () => {});
    await new Promise((r) => s.once('open', r));
    return s;
  }),
);
while (gateway.connections.size < 240) await new Promise((r) => setTimeout(r, 10));
const ids = [...gateway.connections.keys()];
const event = { type: 'QUEUE_STATUS_UPDATED', data: { pad: 'x'.repeat(2000) } } as never;
const data = new TextEncoder().encode(JSON.stringify(event));
const cpu = () => {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1000;
};
const variants: Record<string, () => Promise<unknown>> = {
  publisher: () => publisher.send(ids, event),
  direct: () => Promise.all(ids.map((id) => gateway.answer('POST', id, data))),
};
for (const metered of [false, true]) {
  process.env.CURBSIDE_METER = metered ? '1' : '';
  for (let round = 0; round < 3; round++)
    for (const [name, f] of Object.entries(variants)) {
      let ms = 0;
      let c = 0;
      for (let i = 0; i < 60; i++) {
        await new Promise((r) => setTimeout(r, 5));
        const t = performance.now();
        const c0 = cpu();
        await meter.run('x', f);
        ms += performance.now() - t;
        c += cpu() - c0;
      }
      console.log(
        metered ? 'meter on ' : 'meter off',
        name.padEnd(10),
        'wall',
        (ms / 60).toFixed(2),
        'cpu',
        (c / 60).toFixed(2),
        'ms per 240-post fan-out',
      );
    }
}
for (const s of sockets) s.terminate();
await gateway.close();
server.close();
