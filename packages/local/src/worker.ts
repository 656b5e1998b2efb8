/**
 * One worker thread of the laptop runtime: a warm Lambda container of one
 * function. It runs one invocation at a time (the pool never sends two),
 * with the function's IAM grant and the meter, exactly as `invoke` does on the
 * main thread; its module state (caches, the bus relay's timers) is its own.
 * Live messages and job starts cross to the main thread, which owns the
 * sockets and the job runs: a post is refused here first when the function
 * has no `execute-api:ManageConnections`, as IAM would.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { registerInProcessMail, registerInProcessManagement } from '@curbside/functions/lib/in-process';
import { registerInProcessJobs } from '@curbside/functions/lib/jobs';
import { registerInProcessMailRuns } from '@curbside/functions/lib/mail-runs';
import { meter } from '@curbside/store';
import { laptopInvokeStore } from './invoke-store';
import { invoke, loadHandler, resolveModulesWith } from './lambda';
import { sesTransport } from './mail';
import { inProcessTransport } from './management';
import type { FromWorker, ManagementAnswer, ManagementCall, ToWorker, WorkerSetup } from './worker-protocol';

const port = parentPort;
if (!port) throw new Error('worker.ts runs only as a worker thread');
const setup = workerData as WorkerSetup;
if (setup.modules) resolveModulesWith(setup.modules);
// Before any function module loads: Powertools reads the per-invocation store as it is made
// (the thread inherits AWS_LAMBDA_MAX_CONCURRENCY from the main thread, not its store).
laptopInvokeStore();

let stopping = false;
let lastAsk = 0;
const asks = new Map<number, (value: unknown) => void>();
const send = (message: FromWorker) => port.postMessage(message);
const ask = <T>(question: Extract<FromWorker, { type: 'ask' }>['question']): Promise<T> =>
  new Promise((resolve) => {
    const id = ++lastAsk;
    asks.set(id, resolve as (value: unknown) => void);
    send({ type: 'ask', id, question });
  });

/** The management calls of this turn of the event loop (a fan-out's posts), sent together. */
let calls: Array<{ call: ManagementCall; answered: (answer: ManagementAnswer) => void }> | undefined;
const callManagement = (method: string, connectionId: string, body: Uint8Array) =>
  new Promise<ManagementAnswer>((answered) => {
    if (!calls) {
      calls = [];
      setImmediate(() => {
        const these = calls ?? [];
        calls = undefined;
        void ask<ManagementAnswer[]>({ kind: 'management', calls: these.map(({ call }) => call) }).then(
          (answers) => {
            for (const [i, { answered }] of these.entries()) answered(answers[i] as ManagementAnswer);
          },
        );
      });
    }
    calls.push({ call: { method, connectionId, body }, answered });
  });

if (setup.managementEndpoint) {
  registerInProcessManagement(setup.managementEndpoint, inProcessTransport(callManagement));
}
registerInProcessJobs((run) => ask({ kind: 'job', run }));
registerInProcessMailRuns((run) => ask({ kind: 'mailRun', run }));
// Mail is refused here first when the function has no ses:SendEmail; the main thread keeps what is sent.
if (setup.mailEndpoint) {
  registerInProcessMail(
    setup.mailEndpoint,
    sesTransport((mail) => ask<string>({ kind: 'mail', mail })),
  );
}

port.on('message', (message: ToWorker) => {
  switch (message.type) {
    case 'answer': {
      asks.get(message.id)?.(message.value);
      asks.delete(message.id);
      return;
    }
    case 'stopping':
      stopping = true;
      return;
    case 'warm': {
      void Promise.allSettled(message.modules.map((module) => loadHandler(module))).then(() =>
        send({ type: 'warmed', id: message.id }),
      );
      return;
    }
    case 'collect':
      send({ type: 'collected', id: message.id, meter: meter.take() });
      return;
    case 'invoke': {
      const { id, module, event, timeoutMs } = message;
      invoke(module, event, { ...(timeoutMs ? { timeoutMs } : {}), stopping: () => stopping }).then(
        (value) => send({ type: 'result', id, ok: true, value, meter: meter.take() }),
        (error: unknown) =>
          send({
            type: 'result',
            id,
            ok: false,
            error: {
              message: error instanceof Error ? error.message : String(error),
              stack: error instanceof Error ? (error.stack ?? '') : '',
            },
            meter: meter.take(),
          }),
      );
      return;
    }
  }
});
