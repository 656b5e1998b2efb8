/**
 * What the server's one thread makes a request wait for (`CURBSIDE_LOOP=<file>`; measuring only,
 * off otherwise): every second, a JSON line with the event loop's delay over that second
 * (`perf_hooks.monitorEventLoopDelay`, 1 ms resolution: how late a timer due then ran, so how long
 * anything that became ready waited for the thread) and, per API route, each call's time from
 * its `request` event to its handler's start (`queue`: the body's end and the gateway's work),
 * the handler's wall time (`handler`) and from the handler's answer to the response's last byte
 * handed to the socket (`write`). Nothing of it runs without the variable.
 */
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const FILE = process.env.CURBSIDE_LOOP;

/** One API call's three stretches, in ms. */
export interface CallTimes {
  queue: number;
  handler: number;
  write: number;
}

const calls: { route: string; times: CallTimes }[] = [];
let lines: string[] = [];

const start = () => {
  if (!FILE) return;
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  const flush = () => {
    if (lines.length > 0) appendFileSync(FILE, lines.join(''));
    lines = [];
  };
  setInterval(() => {
    const byRoute: Record<string, CallTimes[]> = {};
    for (const call of calls.splice(0)) {
      byRoute[call.route] ??= [];
      byRoute[call.route]?.push(call.times);
    }
    lines.push(
      `${JSON.stringify({
        at: Date.now(),
        pid: process.pid,
        // The monotonic clock in µs, as a V8 CPU profile's timestamps (to find a second in `--cpu-prof`).
        hr: Number(process.hrtime.bigint() / 1000n),
        loop: {
          count: delay.count,
          mean: ms(delay.mean),
          p50: ms(delay.percentile(50)),
          p90: ms(delay.percentile(90)),
          p99: ms(delay.percentile(99)),
          max: ms(delay.max),
        },
        calls: byRoute,
      })}\n`,
    );
    delay.reset();
    if (lines.length >= 10) flush();
  }, 1000).unref();
  process.on('exit', flush);
};
start();

/** Times one API call when watching: answers a function that records it once its answer is written. */
export const watchCall = (
  route: string,
  arrived: number,
): ((at: 'invoke' | 'answered' | 'written') => void) | undefined => {
  if (!FILE) return undefined;
  let invoked = arrived;
  let answered = arrived;
  return (at) => {
    const now = performance.now();
    if (at === 'invoke') invoked = now;
    else if (at === 'answered') answered = now;
    else
      calls.push({
        route,
        times: {
          queue: Math.round((invoked - arrived) * 100) / 100,
          handler: Math.round((answered - invoked) * 100) / 100,
          write: Math.round((now - answered) * 100) / 100,
        },
      });
  };
};
