/**
 * Runs in the child process `server-process.ts` forks: Curbside's laptop
 * runtime with the meter on (`CURBSIDE_METER=1`, set by the parent), every
 * handler module loaded up front (as a warm Lambda container would have it),
 * RSS sampled every 100 ms, and a plain `ws` server for the broadcast floor.
 */
import { handlerModules } from '@curbside/functions/handlers';
import { useTestHashCost } from '@curbside/functions/lib/passwords';
import { loadHandler, type RunningServer, startServer } from '@curbside/local';
import { meter } from '@curbside/store';
import { WebSocket, WebSocketServer } from 'ws';
import type { Answers, Envelope, Reply, Request } from './server-process';
import type { MemoryFigures } from './types';

const MB = 1024 * 1024;
let server: RunningServer | undefined;
let floor: WebSocketServer | undefined;

let baselineRss = process.memoryUsage.rss();
let peakRss = baselineRss;
let peakHeap = process.memoryUsage().heapUsed;
let samples = 0;
const sampler = setInterval(() => {
  const { rss, heapUsed } = process.memoryUsage();
  peakRss = Math.max(peakRss, rss);
  peakHeap = Math.max(peakHeap, heapUsed);
  samples++;
}, 100);

const memory = (): MemoryFigures => ({
  baselineRssMb: baselineRss / MB,
  peakRssMb: peakRss / MB,
  peakHeapUsedMb: peakHeap / MB,
  samples,
});

const listening = (wss: WebSocketServer) =>
  new Promise<number>((resolve) => {
    wss.once('listening', () => resolve((wss.address() as { port: number }).port));
  });

/** Sends `count` messages of about `payloadBytes` to every floor client, `perSecond` a second. */
const broadcast = async (count: number, perSecond: number, payloadBytes: number) => {
  if (!floor) throw new Error('No floor server');
  const clients = [...floor.clients].filter((client) => client.readyState === WebSocket.OPEN);
  const payload = 'x'.repeat(Math.max(0, payloadBytes - 40));
  const started = performance.now();
  let sent = 0;
  for (let i = 0; i < count; i++) {
    const due = started + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    // Sub-millisecond stamps: the floor's latencies are small.
    const message = JSON.stringify({
      type: 'FLOOR',
      data: payload,
      sentAt: performance.timeOrigin + performance.now(),
    });
    for (const client of clients) {
      client.send(message);
      sent++;
    }
  }
  return { sent, clients: clients.length, ms: performance.now() - started };
};

const handle = async (request: Request): Promise<Answers[Request['type']]> => {
  switch (request.type) {
    case 'start': {
      process.env.LOG_LEVEL = request.logLevel;
      if (request.testHashCost) useTestHashCost();
      server = await startServer({
        port: 0,
        host: '127.0.0.1',
        tableName: request.tableName,
        dynamoEndpoint: request.dynamoEndpoint,
        runSchedules: false,
        workers: request.workers,
      });
      const modules = handlerModules().map((module) =>
        module.source.replace(/^src\//, '').replace(/\.ts$/, ''),
      );
      if (server.workers) await server.workers.warm(modules);
      else for (const module of modules) await loadHandler(module);
      baselineRss = process.memoryUsage.rss();
      peakRss = baselineRss;
      return { url: server.url };
    }
    case 'meter':
      await server?.workers?.collectMeter();
      return meter.snapshot();
    case 'memory':
      return memory();
    case 'cpu':
      return process.cpuUsage();
    case 'memoryBaseline':
      baselineRss = process.memoryUsage.rss();
      peakRss = baselineRss;
      peakHeap = process.memoryUsage().heapUsed;
      return null;
    case 'floorServer': {
      floor?.close();
      floor = new WebSocketServer({ host: '127.0.0.1', port: 0 });
      return { url: `ws://127.0.0.1:${await listening(floor)}` };
    }
    case 'floorBroadcast':
      return broadcast(request.count, request.perSecond, request.payloadBytes);
    case 'busRelay':
      process.env.BUS_RELAY = request.mode === 'naive' ? 'naive' : '';
      return null;
    case 'stop':
      clearInterval(sampler);
      floor?.close();
      await server?.close();
      return null;
  }
};

process.on('message', (envelope: Envelope) => {
  handle(envelope.request).then(
    (result) => {
      process.send?.({ id: envelope.id, ok: true, result } satisfies Reply, () => {
        if (envelope.request.type === 'stop') process.exit(0);
      });
    },
    (error: unknown) => {
      process.send?.({
        id: envelope.id,
        ok: false,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      } satisfies Reply);
    },
  );
});

// The parent went away: never linger.
process.on('disconnect', () => {
  void (async () => {
    floor?.close();
    await server?.close().catch(() => undefined);
    process.exit(0);
  })();
});
