/**
 * What a request waits for while the laptop runtime writes a fan-out (issue 54, h54m): the
 * emulated WebSocket API with 240 connections (40 staff, 200 parents) and 100 map viewers, the
 * publisher posting in-process as the handlers do; fan-outs at the rush's rate (a change to the
 * 40 staff and 4 parents about 15 times a second, one to every staff screen and parent twice a
 * second, the bus message to the 100 viewers once a second); meanwhile a client process sends an
 * HTTP request every few ms to the same thread (a poll's stand-in: answered at once) and times it.
 * Variants interleaved round by round: posts written at once (as before h54m) and in turns of
 * `POSTS_PER_TURN`. Prints the requests' latency and the time to each fan-out's answer (the
 * publisher's `send`: after every write before h54m, at acceptance since).
 *
 *   npx tsx test/bench/fan-out-slices.ts [--rounds 6] [--seconds 5]
 */
import { fork } from 'node:child_process';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { ServerMessage } from '@curbside/api';
import { registerInProcessManagement } from '@curbside/functions/lib/in-process';
import { createManagementClient, createPublisher } from '@curbside/functions/lib/publisher';
import type { Db } from '@curbside/store';
import { WebSocket } from 'ws';
import { inProcessTransport } from '../../packages/local/src/management';
import { createWebSocketGateway, POSTS_PER_TURN } from '../../packages/local/src/websocket';

const PAYLOAD = 'x'.repeat(2000);

/** The client side: opens the sockets, then times one request at a time until told to stop. */
const client = async () => {
  const { wsUrl, httpUrl, sockets } = JSON.parse(process.argv[3] as string) as {
    wsUrl: string;
    httpUrl: string;
    sockets: number;
  };
  const open: WebSocket[] = [];
  let received = 0;
  for (let i = 0; i < sockets; i++) {
    const socket = new WebSocket(wsUrl);
    socket.on('message', () => received++);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    open.push(socket);
  }
  let timing = false;
  let latencies: number[] = [];
  const once = () =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      httpRequest(httpUrl, { agent: false }, (response) => {
        response.resume().on('end', () => {
          latencies.push(performance.now() - started);
          resolve();
        });
      }).end();
    });
  const loop = async () => {
    while (timing) {
      await once();
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  };
  process.on('message', (message: { type: string }) => {
    if (message.type === 'start') {
      latencies = [];
      timing = true;
      void loop();
    } else if (message.type === 'stop') {
      timing = false;
      process.send?.({ type: 'latencies', latencies, received });
    } else if (message.type === 'exit') {
      for (const socket of open) socket.terminate();
      process.exit(0);
    }
  });
  process.send?.({ type: 'ready' });
};

const main = async () => {
  const { values } = parseArgs({
    options: { rounds: { type: 'string', default: '6' }, seconds: { type: 'string', default: '5' } },
  });
  const rounds = Number(values.rounds);
  const seconds = Number(values.seconds);
  const variants = [
    { name: 'at once (before)', postsPerTurn: Number.POSITIVE_INFINITY },
    { name: `${POSTS_PER_TURN} a turn (h54m)`, postsPerTurn: POSTS_PER_TURN },
    { name: '128 a turn', postsPerTurn: 128 },
  ];
  const setups = await Promise.all(
    variants.map(async (variant, index) => {
      const gateway = createWebSocketGateway({
        invoke: async () => ({ statusCode: 200 }),
        postsPerTurn: variant.postsPerTurn,
      });
      const server = createServer((_request, response) => response.end('{}'));
      server.on('upgrade', (request, socket, head) => gateway.upgrade(request, socket, head));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as AddressInfo).port;
      const endpoint = `http://127.0.0.1:${port}/v${index}`;
      registerInProcessManagement(endpoint, inProcessTransport(gateway.answer));
      const publisher = createPublisher({
        db: {} as Db,
        client: createManagementClient(endpoint, 'us-east-1', { inProcess: true }),
        inProcessEndpoint: endpoint,
      });
      const child = fork(fileURLToPath(import.meta.url), [
        'client',
        JSON.stringify({
          wsUrl: `ws://127.0.0.1:${port}/ws`,
          httpUrl: `http://127.0.0.1:${port}/`,
          sockets: 340,
        }),
      ]);
      await new Promise((resolve) => child.once('message', resolve));
      while (gateway.connections.size < 340) await new Promise((resolve) => setTimeout(resolve, 20));
      const ids = [...gateway.connections.keys()];
      return {
        ...variant,
        gateway,
        server,
        publisher,
        child,
        ids,
        figures: { latencies: [] as number[], fanOutMs: [] as number[] },
      };
    }),
  );

  const event = (n: number): ServerMessage =>
    ({
      type: 'QUEUE_STATUS_UPDATED',
      data: { n, pad: PAYLOAD },
      sentAt: Date.now(),
    }) as unknown as ServerMessage;
  for (let round = 0; round < rounds; round++) {
    for (const setup of [...setups.slice(round % setups.length), ...setups.slice(0, round % setups.length)]) {
      const staffAndFour = setup.ids.slice(0, 44);
      const staffAndParents = setup.ids.slice(0, 240);
      const viewers = setup.ids.slice(240, 340);
      setup.child.send({ type: 'start' });
      const started = performance.now();
      let n = 0;
      const fanOuts: Promise<void>[] = [];
      const timed = (ids: string[]) => {
        const at = performance.now();
        fanOuts.push(
          setup.publisher.send(ids, event(n++)).then(() => {
            setup.figures.fanOutMs.push(performance.now() - at);
          }),
        );
      };
      // 15 changes a second to 44, 2 a second to 240, the bus message once a second to 100.
      const timers = [
        setInterval(() => timed(staffAndFour), 1000 / 15),
        setInterval(() => timed(staffAndParents), 500),
        setInterval(() => timed(viewers), 1000),
      ];
      while (performance.now() - started < seconds * 1000)
        await new Promise((resolve) => setTimeout(resolve, 100));
      for (const timer of timers) clearInterval(timer);
      await Promise.all(fanOuts);
      const answer = await new Promise<{ latencies: number[] }>((resolve) => {
        setup.child.once('message', (message) => resolve(message as { latencies: number[] }));
        setup.child.send({ type: 'stop' });
      });
      setup.figures.latencies.push(...answer.latencies);
    }
  }
  const pct = (values: number[], p: number) =>
    [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ??
    0;
  const f = (n: number) => n.toFixed(2).padStart(7);
  console.log('variant              requests  p50 ms   p90 ms   p99 ms  | fan-outs  answered p50 / p99 ms');
  for (const { name, figures } of setups)
    console.log(
      `${name.padEnd(20)} ${String(figures.latencies.length).padStart(8)} ${f(pct(figures.latencies, 50))}  ${f(pct(figures.latencies, 90))}  ${f(pct(figures.latencies, 99))}  | ${String(figures.fanOutMs.length).padStart(8)}  ${f(pct(figures.fanOutMs, 50))} / ${f(pct(figures.fanOutMs, 99))}`,
    );
  for (const setup of setups) {
    setup.child.send({ type: 'exit' });
    await setup.gateway.close();
    setup.server.close();
  }
};

if (process.argv[2] === 'client') await client();
else await main();
