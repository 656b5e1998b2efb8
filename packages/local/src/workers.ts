/**
 * The laptop runtime's functions in worker threads, as Lambda runs them in
 * their own containers: each function of the route table (`functionOfModule`)
 * has its own pool; an invocation goes to a free worker of its function (one
 * invocation per worker at a time), the pool grows up to `limit` workers and
 * keeps them warm. A worker that dies (an uncaught error, out of memory, killed)
 * fails only the invocation it was running (`WorkerCrashed`: API Gateway's 502)
 * and is replaced on the next invocation. The main thread keeps the sockets and
 * the job runs; workers reach them through `answerQuestion`.
 */
import { SHARE_ENV, Worker } from 'node:worker_threads';
import { functionOfModule, IMPORT_JOBS } from '@curbside/api';
import { meter } from '@curbside/store';
import type { Invoke, InvokeOptions } from './lambda';
import { logError } from './log';
import type { FromWorker, Question, ToWorker, WorkerSetup } from './worker-protocol';

/** A worker ended while it ran an invocation: the gateway answers 502, as API Gateway does for a crashed Lambda. */
export class WorkerCrashed extends Error {
  constructor(module: string, why: string) {
    super(`${module}: the worker running it ended (${why})`);
    this.name = 'WorkerCrashed';
  }
}

export interface WorkerPoolOptions {
  /** Workers per function at most (default: the machine's cores). */
  limit: number;
  /** The management API endpoint the handlers post to. */
  managementEndpoint: string;
  /** The emulated SES endpoint the handlers send mail to. */
  mailEndpoint?: string;
  /** Answers a worker's question: a post to a socket, a job run to start. */
  answerQuestion: (question: Question) => Promise<unknown>;
  /** Handler modules loaded from other files (tests). */
  modules?: Record<string, string>;
}

interface Running {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  module: string;
}

interface Slot {
  worker: Worker;
  running: Running | undefined;
  /** Given to an invocation that has not started on it yet. */
  reserved: boolean;
  /** Answers awaited from the worker: a warm-up or a meter collection done. */
  acks: Map<number, () => void>;
  ended: boolean;
}

const ENTRY = new URL('./worker-entry.mjs', import.meta.url);

/** The function a handler module belongs to (its pool). */
const functionIdOf = (module: string): string =>
  module === IMPORT_JOBS.module ? IMPORT_JOBS.id : (functionOfModule(module)?.id ?? module);

export const createWorkerPools = (options: WorkerPoolOptions) => {
  const limit = Math.max(1, Math.floor(options.limit));
  const pools = new Map<string, Slot[]>();
  const waiting = new Map<string, Array<(slot: Slot) => void>>();
  let lastId = 0;
  let stopping = false;
  let closed = false;

  const setup: WorkerSetup = {
    managementEndpoint: options.managementEndpoint,
    ...(options.mailEndpoint ? { mailEndpoint: options.mailEndpoint } : {}),
    ...(options.modules ? { modules: options.modules } : {}),
  };

  const poolOf = (functionId: string) => {
    let pool = pools.get(functionId);
    if (!pool) {
      pool = [];
      pools.set(functionId, pool);
    }
    return pool;
  };

  /** A slot that became free goes to the longest-waiting invocation of its function. */
  const release = (functionId: string, slot: Slot) => {
    slot.running = undefined;
    const next = waiting.get(functionId)?.shift();
    if (next) {
      slot.reserved = true;
      next(slot);
    }
  };

  const spawn = (functionId: string): Slot => {
    // Workers share this process's environment: the runtime sets the handlers' configuration once.
    const worker = new Worker(ENTRY, { env: SHARE_ENV, workerData: setup, name: functionId });
    const slot: Slot = { worker, running: undefined, reserved: false, acks: new Map(), ended: false };
    const end = (why: string) => {
      if (slot.ended) return;
      slot.ended = true;
      const pool = poolOf(functionId);
      pool.splice(pool.indexOf(slot), 1);
      for (const done of slot.acks.values()) done();
      const running = slot.running;
      slot.running = undefined;
      if (running) running.reject(new WorkerCrashed(running.module, why));
      // Someone waiting for this function gets a new worker in its place.
      const next = waiting.get(functionId)?.shift();
      if (next && !closed) next(reserve(spawn(functionId)));
    };
    worker.on('message', (message: FromWorker) => {
      switch (message.type) {
        case 'result': {
          meter.absorb(message.meter);
          const running = slot.running;
          if (!running) return;
          release(functionId, slot);
          if (message.ok) running.resolve(message.value);
          else {
            const error = new Error(message.error.message);
            error.stack = message.error.stack;
            running.reject(error);
          }
          return;
        }
        case 'ask': {
          options.answerQuestion(message.question).then(
            (value) => worker.postMessage({ type: 'answer', id: message.id, value } satisfies ToWorker),
            (error: unknown) => {
              logError('a worker question failed', error);
              worker.postMessage({ type: 'answer', id: message.id, value: undefined } satisfies ToWorker);
            },
          );
          return;
        }
        case 'collected':
          meter.absorb(message.meter);
          slot.acks.get(message.id)?.();
          slot.acks.delete(message.id);
          return;
        case 'warmed': {
          slot.acks.get(message.id)?.();
          slot.acks.delete(message.id);
          return;
        }
      }
    });
    worker.on('error', (error) => {
      logError(`worker of ${functionId} crashed`, error);
      end(error.message);
    });
    worker.on('exit', (code) => end(`exit code ${code}`));
    if (stopping) worker.postMessage({ type: 'stopping' } satisfies ToWorker);
    poolOf(functionId).push(slot);
    return slot;
  };

  const reserve = (slot: Slot) => {
    slot.reserved = true;
    return slot;
  };

  /** A free worker of the function: an idle one, a new one under the limit, or the next to finish. */
  const acquire = (functionId: string): Promise<Slot> => {
    const pool = poolOf(functionId);
    const idle = pool.find((slot) => !slot.running && !slot.reserved && !slot.ended);
    if (idle) return Promise.resolve(reserve(idle));
    if (pool.length < limit) return Promise.resolve(reserve(spawn(functionId)));
    return new Promise((resolve) => {
      const queue = waiting.get(functionId) ?? [];
      waiting.set(functionId, queue);
      queue.push(resolve);
    });
  };

  const invoke: Invoke = async (module: string, event: unknown, invokeOptions: InvokeOptions = {}) => {
    if (closed) throw new Error('The runtime is closed');
    const functionId = functionIdOf(module);
    const slot = await acquire(functionId);
    return new Promise((resolve, reject) => {
      slot.reserved = false;
      if (slot.ended) {
        reject(new WorkerCrashed(module, 'it ended before the invocation started'));
        return;
      }
      slot.running = { resolve, reject, module };
      const id = ++lastId;
      slot.worker.postMessage({
        type: 'invoke',
        id,
        module,
        event,
        ...(invokeOptions.timeoutMs ? { timeoutMs: invokeOptions.timeoutMs } : {}),
      } satisfies ToWorker);
    });
  };

  /**
   * Starts `perFunction` workers (default: the limit) of each function of `modules` and loads
   * those modules in each: warm containers, before the load comes.
   */
  const warm = async (modules: readonly string[], perFunction = limit) => {
    const byFunction = new Map<string, string[]>();
    for (const module of modules) {
      const functionId = functionIdOf(module);
      byFunction.set(functionId, [...(byFunction.get(functionId) ?? []), module]);
    }
    await Promise.all(
      [...byFunction].flatMap(([functionId, its]) => {
        const pool = poolOf(functionId);
        while (pool.length < Math.min(limit, perFunction)) spawn(functionId);
        return pool.map(
          (slot) =>
            new Promise<void>((done) => {
              const id = ++lastId;
              slot.acks.set(id, done);
              slot.worker.postMessage({ type: 'warm', id, modules: its } satisfies ToWorker);
            }),
        );
      }),
    );
  };

  /** Brings what every worker's meter counted since its last invocation into this thread's meter. */
  const collectMeter = async () => {
    await Promise.all(
      [...pools.values()].flat().map(
        (slot) =>
          new Promise<void>((done) => {
            const id = ++lastId;
            slot.acks.set(id, done);
            slot.worker.postMessage({ type: 'collect', id } satisfies ToWorker);
          }),
      ),
    );
  };

  /** Running job runs save their place and end (their context has no time left). */
  const stop = () => {
    stopping = true;
    for (const pool of pools.values()) {
      for (const slot of pool) slot.worker.postMessage({ type: 'stopping' } satisfies ToWorker);
    }
  };

  const close = async () => {
    stop();
    closed = true;
    const all = [...pools.values()].flat();
    await Promise.allSettled(all.map((slot) => slot.worker.terminate()));
  };

  /** Workers per function, for the README's model and the tests. */
  const sizes = () => Object.fromEntries([...pools].map(([functionId, pool]) => [functionId, pool.length]));

  /** The workers of a function (a test kills one mid-request). */
  const workersOf = (functionId: string): readonly Worker[] => poolOf(functionId).map((slot) => slot.worker);

  return { invoke, warm, collectMeter, stop, close, sizes, workersOf };
};

export type WorkerPools = ReturnType<typeof createWorkerPools>;
