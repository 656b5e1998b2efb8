import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Issue 55: the log output of the API and WebSocket flows, kept for the
 * privacy check (`test/logs/privacy.test.ts`, run after the suite by
 * `npm test`). With `CURBSIDE_LOG_CAPTURE` naming a folder, a file of
 * `test/api` or `test/ws` runs with logging on (JSON lines), and everything it
 * prints through the console (the handlers' lines and the laptop runtime's)
 * goes to a file of that folder instead of the terminal. Other files print as
 * they always did.
 */
const CAPTURED = /[\\/]test[\\/](api|ws)[\\/]/;
const worker = globalThis as typeof globalThis & {
  curbsideConsole?: Pick<Console, 'log' | 'error' | 'warn' | 'info'>;
};

export const captureLogs = (testPath: string) => {
  worker.curbsideConsole ??= {
    log: console.log,
    error: console.error,
    warn: console.warn,
    info: console.info,
  };
  Object.assign(console, worker.curbsideConsole);
  const dir = process.env.CURBSIDE_LOG_CAPTURE;
  if (!dir || !CAPTURED.test(testPath)) return;
  process.env.LOG_LEVEL = 'info';
  process.env.LOG_FORMAT = 'json';
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${process.pid}.log`);
  const write = (...args: unknown[]) => {
    appendFileSync(file, `${args.map((arg) => (typeof arg === 'string' ? arg : String(arg))).join(' ')}\n`);
  };
  Object.assign(console, { log: write, error: write, warn: write, info: write });
};
