/**
 * What the meter costs the server's thread (issue 54, h54n): the laptop runtime's thread CPU for
 * the same real requests (a family's car queued, set ready, removed, and the line's poll) with the
 * meter off, on as another checkout has it (`--base`, the code before a change), on as this
 * checkout has it, and the same with `CURBSIDE_METER_CPU=exact` (the clock read at every
 * callback's end, so the event loop's own work goes to no invocation; the two figures differ by
 * that work, less the exact variant's own reads). Each variant is a server process of its own
 * (the laptop runtime with every handler loaded, AsyncContextFrame on, as the benchmark's server
 * has it) on one DynamoDB Local, with `--screens` staff screens on the line (so a change fans out).
 * This process sends the requests one at a time and reads each server's thread and process CPU
 * before and after a round; rounds interleave the variants, the order rotated each round. Prints,
 * per variant, the thread's CPU per iteration (median and range over the rounds, and its ratio to
 * the meter off), the process's CPU (every thread) and the meter's clock reads per iteration and,
 * for the metered ones, the handlers' own CPU per call (`lambda.cpuMs`) per route.
 *
 *   npx tsx test/bench/meter-cost.ts --base ../other-checkout [--rounds 6] [--iterations 40]
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { channels } from '@curbside/api';
import { startDynamoLocal } from '@curbside/local';
import {
  connections,
  connectionTableNameFor,
  createDb,
  LOCAL_KEY_ID_VARIABLE,
  type MeterSnapshot,
} from '@curbside/store';
import { WebSocket } from 'ws';
import { type Client, signedIn } from '../support/client';
import { sessionBody } from '../support/fixtures';

const here = fileURLToPath(import.meta.url);
const THIS_ROOT = resolve(here, '../../..');
/** The routes an iteration sends, in its order. */
const ROUTES = ['addToQueue', 'setQueueStatus', 'removeFromQueue', 'listQueue'] as const;
/** Ports of the variants' servers (this machine's rule: 3310 and up). */
const FIRST_PORT = 3310;

type Ask = { type: 'cpu' } | { type: 'meter' } | { type: 'stop' };

/** The child: one laptop runtime from `root`, answering its thread's CPU and its meter. */
const child = async () => {
  const { root, tableName, endpoint, port } = JSON.parse(process.argv[3] as string) as {
    root: string;
    tableName: string;
    endpoint: string;
    port: number;
  };
  // The meter's clock reads, counted (both clocks: the one before h54n and the one after).
  let reads = 0;
  for (const clock of ['cpuUsage', 'threadCpuUsage'] as const) {
    const read = process[clock].bind(process);
    process[clock] = ((...args: Parameters<typeof read>) => {
      reads++;
      return read(...args);
    }) as typeof read;
  }
  const from = (path: string) => import(pathToFileURL(resolve(root, path)).href);
  const local = await from('packages/local/src/index.ts');
  const { seedIfEmpty } = await from('packages/local/src/seed.ts');
  const store = await from('packages/store/src/index.ts');
  const { useTestHashCost } = await from('functions/src/lib/passwords.ts');
  const { handlerModules } = await from('functions/src/handlers.ts');
  useTestHashCost();
  await local.ensureTable({ endpoint, tableName });
  await seedIfEmpty(store.createDb({ table: tableName, endpoint }));
  const server = await local.startServer({ port, tableName, dynamoEndpoint: endpoint, demo: true });
  for (const module of handlerModules() as Array<{ source: string }>)
    await local.loadHandler(module.source.replace(/^src\//, '').replace(/\.ts$/, ''));
  process.on('message', async (ask: Ask) => {
    if (ask.type === 'cpu') {
      // The process's first: reading it brings the thread's clock (moved at the kernel's tick) up to date.
      const whole = process.cpuUsage();
      process.send?.({ thread: process.threadCpuUsage(), process: whole, reads });
    }
    if (ask.type === 'meter') process.send?.(store.meter.snapshot());
    if (ask.type === 'stop') {
      await server.close();
      process.exit(0);
    }
  });
  process.on('disconnect', () => process.exit(0));
  process.send?.({ url: server.url });
};

interface Variant {
  name: string;
  root: string;
  metered: boolean;
  /** More of the server's environment. */
  env?: Record<string, string>;
}

interface Running extends Variant {
  process: ChildProcess;
  url: string;
  tableName: string;
  front: Client;
  sessionId: number;
  /** The server's thread CPU per iteration (ms), one a round. */
  perIteration: number[];
  /** The server process's CPU per iteration (ms, every thread), one a round. */
  processPerIteration: number[];
  /** The meter's clock reads per iteration, one a round. */
  readsPerIteration: number[];
  meterAtStart?: MeterSnapshot;
}

const answer = <T>(running: ChildProcess, ask: Ask) =>
  new Promise<T>((done) => {
    running.once('message', (message) => done(message as T));
    running.send(ask);
  });

const startVariant = async (variant: Variant, index: number, endpoint: string): Promise<Running> => {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const tableName = `meter-cost-${index}-${Date.now()}`;
  const running = fork(
    here,
    ['child', JSON.stringify({ root: variant.root, tableName, endpoint, port: FIRST_PORT + index })],
    {
      cwd: variant.root,
      execArgv: ['--import', tsx, '--experimental-async-context-frame'],
      // Silent, as the benchmark's server is.
      env: {
        ...process.env,
        CURBSIDE_METER: variant.metered ? '1' : '',
        LOG_LEVEL: 'silent',
        NODE_NO_WARNINGS: '1',
        ...variant.env,
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const { url } = await new Promise<{ url: string }>((done, fail) => {
    running.once('message', (message) => done(message as { url: string }));
    running.once('exit', (code) => fail(new Error(`${variant.name}: exited (${code})`)));
  });
  const front = await signedIn(url, 'front_demo');
  const active = (await front.get('/api/sessions/active')).body;
  if (active) await front.put(`/api/sessions/${active.id}/end`);
  const sessionId = (await front.post('/api/sessions', sessionBody())).body.id as number;
  return {
    ...variant,
    process: running,
    url,
    tableName,
    front,
    sessionId,
    perIteration: [],
    processPerIteration: [],
    readsPerIteration: [],
  };
};

/** `count` anonymous screens, then put on the school's line as staff screens (as the calls test does). */
const connectScreens = async (running: Running, count: number, endpoint: string) => {
  const screens: WebSocket[] = [];
  for (let i = 0; i < count; i++) {
    const screen = new WebSocket(`${running.url.replace(/^http/, 'ws')}/ws`);
    screen.on('message', () => {});
    await new Promise((opened, failed) => screen.once('open', opened).once('error', failed));
    screens.push(screen);
  }
  const db = createDb({ table: connectionTableNameFor(running.tableName), endpoint });
  const ids = await connections.inChannel(db, channels.public());
  if (ids.length !== count) throw new Error(`${running.name}: ${ids.length} of ${count} screens connected`);
  const connectedAt = new Date().toISOString();
  await Promise.all(
    ids.map((connectionId) =>
      connections.put(db, {
        connectionId,
        channels: [channels.public(), channels.staff(1), channels.line(1)],
        userId: null,
        connectedAt,
        schools: [1],
      }),
    ),
  );
  return screens;
};

let cars = 5000;
/** One iteration: a car queued, set ready, removed, and the line polled; each answer checked. */
const iteration = async ({ front, sessionId }: Running) => {
  const send = async (method: string, path: string, body?: unknown) => {
    const reply =
      method === 'GET'
        ? await front.request(method, path)
        : await front.request(method, path, body ?? {}, { 'idempotency-key': randomUUID() });
    if (reply.status >= 300)
      throw new Error(`${method} ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body;
  };
  const { id } = await send('POST', '/api/queue', {
    sessionId,
    vehicleNumber: String(cars++),
    vehicleType: 'car',
  });
  const at = `/api/queue/${encodeURIComponent(id)}`;
  await send('PUT', `${at}/status`, { status: 'ready' });
  await send('DELETE', at, { reason: 'removed' });
  await send('GET', `/api/queue?sessionId=${sessionId}`);
};

/** The server's CPU so far, in ms: its main thread's and the whole process's (every thread). */
const cpuOf = async (running: Running) => {
  type Used = { user: number; system: number };
  const used = await answer<{ thread: Used; process: Used; reads: number }>(running.process, {
    type: 'cpu',
  });
  const ms = ({ user, system }: Used) => (user + system) / 1000;
  return { thread: ms(used.thread), process: ms(used.process), reads: used.reads };
};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

const parent = async () => {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      base: { type: 'string' },
      rounds: { type: 'string', default: '6' },
      iterations: { type: 'string', default: '40' },
      screens: { type: 'string', default: '20' },
    },
  });
  if (!values.base) throw new Error('--base <the checkout whose meter is "as it was">');
  const rounds = Number(values.rounds);
  const iterations = Number(values.iterations);
  const variants: Variant[] = [
    { name: 'meter off', root: THIS_ROOT, metered: false },
    { name: 'meter on, as it was', root: resolve(values.base), metered: true },
    { name: 'meter on, as built', root: THIS_ROOT, metered: true },
    // The same, reading the clock at every callback's end at the top (no owner between callbacks).
    { name: 'meter on, exact ends', root: THIS_ROOT, metered: true, env: { CURBSIDE_METER_CPU: 'exact' } },
  ];
  const dynamo = await startDynamoLocal({ inMemory: true });
  process.env[LOCAL_KEY_ID_VARIABLE] = dynamo.accessKeyId;
  const started: Running[] = [];
  const screens: WebSocket[] = [];
  try {
    for (const [index, variant] of variants.entries()) {
      const running = await startVariant(variant, index, dynamo.endpoint);
      started.push(running);
      screens.push(...(await connectScreens(running, Number(values.screens), dynamo.endpoint)));
      // Warm: every route served a few times (a warm instance).
      for (let i = 0; i < 5; i++) await iteration(running);
      running.meterAtStart = await answer<MeterSnapshot>(running.process, { type: 'meter' });
    }
    console.log(`load average at the start: ${(await import('node:os')).loadavg().join(' ')}`);
    for (let round = 0; round < rounds; round++) {
      const order = started.map((_, i) => started[(i + round) % started.length] as Running);
      for (const running of order) {
        const before = await cpuOf(running);
        for (let i = 0; i < iterations; i++) await iteration(running);
        const after = await cpuOf(running);
        running.perIteration.push((after.thread - before.thread) / iterations);
        running.processPerIteration.push((after.process - before.process) / iterations);
        running.readsPerIteration.push((after.reads - before.reads - 2) / iterations);
      }
    }
    console.log(`load average at the end: ${(await import('node:os')).loadavg().join(' ')}`);
    const off = median(started[0]?.perIteration ?? []);
    console.log(
      `\nthe server thread's CPU per iteration (${ROUTES.join(', ')}), ms; ${rounds} rounds of ${iterations}`,
    );
    for (const running of started) {
      const mid = median(running.perIteration);
      const range = `${Math.min(...running.perIteration).toFixed(2)}–${Math.max(...running.perIteration).toFixed(2)}`;
      console.log(
        `${running.name.padEnd(22)} median ${mid.toFixed(2)} (${range}), ×${(mid / off).toFixed(2)} the meter off; ` +
          `the process (every thread) ${median(running.processPerIteration).toFixed(2)}; ` +
          `clock reads ${median(running.readsPerIteration).toFixed(0)}`,
      );
    }
    console.log("\nthe handlers' own CPU per call (lambda.cpuMs), ms, over every measured round");
    for (const running of started.filter((variant) => variant.metered)) {
      const now = await answer<MeterSnapshot>(running.process, { type: 'meter' });
      const figures = ROUTES.map((route) => {
        const of = (snapshot: MeterSnapshot | undefined, name: string) =>
          snapshot?.[`http/${route}`]?.[name] ?? 0;
        const calls = of(now, 'lambda.invocations') - of(running.meterAtStart, 'lambda.invocations');
        const ms = of(now, 'lambda.cpuMs') - of(running.meterAtStart, 'lambda.cpuMs');
        return `${route} ${(ms / calls).toFixed(2)}`;
      });
      console.log(`${running.name.padEnd(22)} ${figures.join(', ')}`);
    }
  } finally {
    for (const screen of screens) screen.terminate();
    for (const running of started) running.process.send({ type: 'stop' } satisfies Ask);
    await Promise.all(started.map((running) => new Promise((done) => running.process.once('exit', done))));
    await dynamo.stop();
  }
};

if (process.argv[2] === 'child') await child();
else await parent();
