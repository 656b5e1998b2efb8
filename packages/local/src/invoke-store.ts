import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Lambda's per-invocation store, as the runtime of a function that serves
 * several invocations at once provides it (`globalThis.awslambda.InvokeStore`,
 * with `AWS_LAMBDA_MAX_CONCURRENCY` set). The laptop runs every invocation of
 * every function in one process at once, so it is that kind of runtime:
 * Powertools keeps each invocation's log keys (request id, route, school,
 * user) and metrics in this store, and two requests at the same moment never
 * log each other's keys. In AWS each invocation has its container to itself.
 */
const REQUEST_ID = Symbol.for('_AWS_LAMBDA_REQUEST_ID');
const X_RAY_TRACE_ID = Symbol.for('_AWS_LAMBDA_X_RAY_TRACE_ID');

type Store = Record<string | symbol, unknown>;

class LaptopInvokeStore {
  readonly #als = new AsyncLocalStorage<Store>();
  getContext() {
    return this.#als.getStore();
  }
  hasContext() {
    return this.#als.getStore() !== undefined;
  }
  get(key: string | symbol) {
    return this.#als.getStore()?.[key];
  }
  set(key: string | symbol, value: unknown) {
    const store = this.#als.getStore();
    if (!store) throw new Error('No invocation context');
    store[key] = value;
  }
  run<T>(context: Store, fn: () => T): T {
    return this.#als.run(context, fn);
  }
  getRequestId() {
    return (this.get(REQUEST_ID) as string | undefined) ?? '-';
  }
  getXRayTraceId() {
    return this.get(X_RAY_TRACE_ID) as string | undefined;
  }
  getTenantId() {
    return undefined;
  }
  getTraceparent() {
    return undefined;
  }
  getTracestate() {
    return undefined;
  }
  getBaggage() {
    return undefined;
  }
}

const global = globalThis as { awslambda?: { InvokeStore?: unknown } };
let installed: LaptopInvokeStore | undefined;

/** Installs the store (once per process or worker thread) and answers it. */
export const laptopInvokeStore = (): LaptopInvokeStore => {
  if (!installed || global.awslambda?.InvokeStore !== installed) {
    installed ??= new LaptopInvokeStore();
    global.awslambda = { ...global.awslambda, InvokeStore: installed };
    // Read by Powertools on every access: invocations may run at once here.
    process.env.AWS_LAMBDA_MAX_CONCURRENCY ||= '1000';
  }
  return installed;
};

/** Runs one invocation with its own store, named by its request id. */
export const inInvocation = <T>(requestId: string, fn: () => T): T =>
  laptopInvokeStore().run({ [REQUEST_ID]: requestId }, fn);
