/**
 * A stand-in handler for the worker-pool tests (`test/ws/workers.test.ts`), loaded in the laptop
 * runtime's workers in place of a real module. Its module state (a count) is per worker, as a
 * Lambda container's is; `?action=` (or `event.action`) picks what it does.
 */
import { threadId } from 'node:worker_threads';
import { inProcessTransportFor } from '@curbside/functions/lib/in-process';

let count = 0;

interface Event {
  action?: string;
  ms?: number;
  connectionId?: string;
  queryStringParameters?: Record<string, string>;
}

const json = (body: unknown) => ({
  statusCode: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

export const handler = async (event: Event) => {
  const action = event.queryStringParameters?.action ?? event.action ?? 'count';
  count++;
  if (action === 'wait') {
    await new Promise((resolve) =>
      setTimeout(resolve, Number(event.queryStringParameters?.ms ?? event.ms ?? 300)),
    );
  }
  if (action === 'crash') {
    // An uncaught error outside the handler's promise: the worker dies, as a Lambda container would.
    setTimeout(() => {
      throw new Error('the handler crashed its worker');
    }, 5);
    return new Promise(() => {});
  }
  if (action === 'post') {
    const transport = inProcessTransportFor(process.env.WS_MANAGEMENT_ENDPOINT as string);
    const answer = await transport?.post?.(
      event.connectionId ?? 'none',
      new TextEncoder().encode('{"type":"x"}'),
    );
    return json({ answer: answer ?? null });
  }
  return json({ count, threadId });
};
