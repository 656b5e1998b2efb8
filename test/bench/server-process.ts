/**
 * The Curbside server in a child process of its own, so the load generator's
 * work never queues on the server's event loop and the server's memory is its
 * own. The parent talks to it over the IPC channel: read or reset the meter,
 * read memory, run the bare `ws` broadcast floor, stop.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { MeterSnapshot } from '@curbside/store';
import type { MemoryFigures } from './types';

export type Request =
  | {
      type: 'start';
      tableName: string;
      dynamoEndpoint: string;
      logLevel: string;
      /** Worker threads per function at most (`cores`: the machine's; 0: every handler on one thread). */
      workers: number | 'cores';
      /** Passwords hash at the tests' cost (`useTestHashCost`), as the parent's do in the smoke test. */
      testHashCost: boolean;
    }
  | { type: 'meter' }
  | { type: 'memory' }
  | { type: 'memoryBaseline' }
  | { type: 'cpu' }
  | { type: 'floorServer' }
  | { type: 'floorBroadcast'; count: number; perSecond: number; payloadBytes: number }
  /** The bus relay from now on: coalesced (as deployed) or naive (every position to every viewer). */
  | { type: 'busRelay'; mode: 'coalesced' | 'naive' }
  | { type: 'stop' };

export interface Answers {
  start: { url: string };
  meter: MeterSnapshot;
  memory: MemoryFigures;
  memoryBaseline: null;
  /** process.cpuUsage() of the server process, in microseconds. */
  cpu: { user: number; system: number };
  floorServer: { url: string };
  floorBroadcast: { sent: number; clients: number; ms: number };
  busRelay: null;
  stop: null;
}

export type Envelope = { id: number; request: Request };
export type Reply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };

const here = fileURLToPath(new URL('.', import.meta.url));

export interface ServerProcess {
  url: string;
  pid: number;
  ask<K extends Request['type']>(request: Extract<Request, { type: K }>): Promise<Answers[K]>;
  stop(): Promise<void>;
}

const ASYNC_CONTEXT_FRAME = '--experimental-async-context-frame';

/** Forks `server-child.ts` (through tsx's loader) and starts Curbside in it. */
export const startServerProcess = async (options: {
  tableName: string;
  dynamoEndpoint: string;
  logLevel: string;
  /** Write a V8 CPU profile of the server process into this directory. */
  cpuProfileDir?: string | undefined;
  workers?: number | undefined;
  testHashCost?: boolean | undefined;
}): Promise<ServerProcess> => {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const profile = options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : [];
  // As `npm start` runs the server (scripts/run.mjs): with AsyncContextFrame where this Node has it.
  const frame = process.allowedNodeEnvironmentFlags.has(ASYNC_CONTEXT_FRAME) ? [ASYNC_CONTEXT_FRAME] : [];
  const child: ChildProcess = fork(join(here, 'server-child.ts'), [], {
    execArgv: ['--import', tsx, ...frame, ...profile],
    env: { ...process.env, CURBSIDE_METER: '1', NODE_NO_WARNINGS: '1' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let nextId = 1;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.on('message', (message: Reply) => {
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    if (message.ok) waiting.resolve(message.result);
    else waiting.reject(new Error(message.error));
  });
  child.once('exit', (code, signal) => {
    for (const waiting of pending.values()) {
      waiting.reject(new Error(`The server process exited (${signal ?? `code ${code}`})`));
    }
    pending.clear();
  });
  const ask = <K extends Request['type']>(request: Extract<Request, { type: K }>): Promise<Answers[K]> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      child.send({ id, request } satisfies Envelope);
    });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    await Promise.race([ask({ type: 'stop' }).catch(() => null), exited]);
    const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(killer);
  };
  try {
    const { url } = await ask({
      type: 'start',
      tableName: options.tableName,
      dynamoEndpoint: options.dynamoEndpoint,
      logLevel: options.logLevel,
      workers: options.workers ?? 0,
      testHashCost: options.testHashCost ?? false,
    });
    return { url, pid: child.pid as number, ask, stop };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
};
