/** Loads Lambda handler modules of `@curbside/functions` on first use and invokes them as Lambda would. */
import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { asyncFunctionOfModule, type FunctionAccess, functionOfModule } from '@curbside/api';
import { access, type Grant, meter } from '@curbside/store';
import type { Context } from 'aws-lambda';
import { inInvocation } from './invoke-store';

// biome-ignore lint/suspicious/noExplicitAny: events and results differ per trigger
export type LambdaHandler = (event: any, context: Context) => Promise<unknown>;

const LAMBDA_TIMEOUT_MS = 30_000;

/** A minimal Lambda context, as the runtime passes to every invocation. */
export const lambdaContext = (
  functionName: string,
  timeoutMs = LAMBDA_TIMEOUT_MS,
  stopping: () => boolean = () => false,
): Context => {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    // A runtime shutting down leaves no time: a long run saves its place and ends.
    getRemainingTimeInMillis: () => (stopping() ? 0 : Math.max(0, deadline - Date.now())),
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
};

const cache = new Map<string, Promise<LambdaHandler>>();

/**
 * `CURBSIDE_FUNCTIONS=dist`: the handlers come from the built bundles
 * (`functions/dist/{function}/index.mjs`, what Lambda runs: each dispatches by
 * route key), not from the sources. Issue 55: the API suite's car-line,
 * parent and auth flows run once this way (vitest project `bundles`).
 */
const fromBundles = () => process.env.CURBSIDE_FUNCTIONS === 'dist';
const functionsDist = new URL('../../../functions/dist/', import.meta.url);
const bundleOf = (module: string): string => {
  const id = (asyncFunctionOfModule(module) ?? functionOfModule(module))?.id;
  if (!id) throw new Error(`No function serves ${module}: is it in the route table?`);
  return new URL(`${id}/index.mjs`, functionsDist).href;
};
let overrides: Record<string, string> = {};

/**
 * Loads these handler modules from the given files (absolute paths or file URLs)
 * instead of `@curbside/functions/{module}`: a test's stand-in for a real handler,
 * with the real one's function, grant and meter label.
 */
export const resolveModulesWith = (modules: Record<string, string>) => {
  overrides = { ...modules };
  cache.clear();
};

/**
 * The `handler` export of `@curbside/functions/{module}` (for example
 * `http/health`, `ws/connect`, `scheduled/end-sessions`). Imported once; a
 * failed import is retried on the next call.
 */
export const loadHandler = (module: string): Promise<LambdaHandler> => {
  let loading = cache.get(module);
  if (!loading) {
    const source = overrides[module] ?? (fromBundles() ? bundleOf(module) : `@curbside/functions/${module}`);
    loading = import(/* @vite-ignore */ source).then((exports: { handler?: unknown }) => {
      if (typeof exports.handler !== 'function') {
        throw new Error(`${source} does not export a handler function`);
      }
      return exports.handler as LambdaHandler;
    });
    loading.catch(() => cache.delete(module));
    cache.set(module, loading);
  }
  return loading;
};

const grants = new Map<string, Grant>();

/**
 * The access the handler's function has in AWS (`FUNCTION_ACCESS`), on this
 * runtime's tables: what `access.check` and the management API enforce.
 */
export const grantOf = (module: string): Grant => {
  const data = process.env.TABLE_NAME ?? '';
  const connectionTable = process.env.CONNECTION_TABLE_NAME ?? '';
  const key = `${module}\u0000${data}\u0000${connectionTable}`;
  let grant = grants.get(key);
  if (!grant) {
    const plan: { id: string; access: FunctionAccess } | undefined =
      asyncFunctionOfModule(module) ?? functionOfModule(module);
    if (!plan) throw new Error(`No function serves ${module}: is it in the route table?`);
    grant = {
      name: plan.id,
      tables: {
        [data]: plan.access.data,
        ...(connectionTable ? { [connectionTable]: plan.access.connections } : {}),
      },
      manageConnections: plan.access.publishes,
      sendsEmail: plan.access.sendsEmail === true,
    };
    grants.set(key, grant);
  }
  return grant;
};

/**
 * Loads and invokes one handler: `ws/connect` runs as Lambda `ws-connect`,
 * with the access of its function in AWS (`grantOf`).
 * The work it causes is metered under the module's name (when
 * `CURBSIDE_METER=1`): `lambda.invocations`, `lambda.ms` (wall time),
 * `lambda.billedMs` (rounded up to whole milliseconds per invocation, as
 * Lambda bills) and `lambda.cpuMs`, the invocation's own CPU (`meter.cpuMs`:
 * the thread's CPU time while the handler's code runs, the SDK's serde and
 * signing and the in-process postToConnection's work in its context; not the emulated
 * API Gateway's parsing before it, nor the socket writes to the browsers after,
 * nor what DynamoDB Local does in its own process).
 */
export interface InvokeOptions {
  timeoutMs?: number;
  /** True once the runtime is shutting down: a long run saves its place and ends. */
  stopping?: () => boolean;
}

/** Runs one invocation of a handler module and answers its result (in-process, or in a worker). */
export type Invoke = (module: string, event: unknown, options?: InvokeOptions) => Promise<unknown>;

/**
 * A trace of each invocation's DynamoDB calls (`CURBSIDE_TRACE=<file>`, with the meter on): one JSON
 * line an invocation, its module, status, wall ms and its calls in the order they ended, each
 * `[operation, start, end]` in ms from the invocation's start. For measuring where a route's time goes.
 */
const TRACE = process.env.CURBSIDE_TRACE;
const traced: string[] = [];
const flushTrace = () => {
  if (TRACE && traced.length > 0) appendFileSync(TRACE, traced.splice(0).join(''));
};
if (TRACE) {
  setInterval(flushTrace, 2000).unref();
  process.on('exit', flushTrace);
}
const trace = (module: string, started: number, ms: number, result: unknown) => {
  const status = (result as { statusCode?: number } | undefined)?.statusCode;
  const calls = meter
    .calls()
    .map(([start, end, what]) => [
      what,
      Math.round((start - started) * 100) / 100,
      Math.round((end - started) * 100) / 100,
    ]);
  traced.push(
    `${JSON.stringify({ module, status, at: Date.now(), ms: Math.round(ms * 100) / 100, calls })}\n`,
  );
};

export const invoke: Invoke = async (module, event, options = {}) => {
  const handler = await loadHandler(module);
  const grant = grantOf(module);
  return meter.run(module, () =>
    access.run(grant, async () => {
      const started = performance.now();
      const context = lambdaContext(module.replace('/', '-'), options.timeoutMs, options.stopping);
      let result: unknown;
      try {
        result = await inInvocation(context.awsRequestId, () => handler(event, context));
        return result;
      } finally {
        const ms = performance.now() - started;
        if (TRACE) trace(module, started, ms, result);
        meter.add('lambda.invocations');
        meter.add('ddb.roundTrips', meter.roundTrips());
        meter.add('lambda.ms', ms);
        meter.add('lambda.cpuMs', meter.cpuMs());
        meter.add('lambda.billedMs', Math.max(1, Math.ceil(ms)));
      }
    }),
  );
};
