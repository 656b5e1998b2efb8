/**
 * The laptop runtime as `npm start -- --in-memory` runs it (DynamoDB Local in memory, the demo
 * seed, the built web app), in a process of its own on a free port: what Lighthouse measures is
 * what a phone gets from `npm start`, and Lighthouse's own work never queues on the server.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { freePort } from '@curbside/local';

const RUNNING = /Curbside is running at (http:\/\/\S+)/;

export interface Laptop {
  url: string;
  stop(): Promise<void>;
}

const ASYNC_CONTEXT_FRAME = '--experimental-async-context-frame';

export const startLaptop = async (root: string): Promise<Laptop> => {
  const port = await freePort();
  // As scripts/run.mjs starts it for `npm start`: with AsyncContextFrame where this Node has it.
  const frame = process.allowedNodeEnvironmentFlags.has(ASYNC_CONTEXT_FRAME) ? ASYNC_CONTEXT_FRAME : '';
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'packages/local/src/main.ts', '--in-memory'],
    {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        // Single sign-on plays no part in these pages.
        CURBSIDE_FAKE_CLEVER: '0',
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} ${frame}`.trim(),
        NODE_NO_WARNINGS: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let output = '';
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      output += `${line}\n`;
      const found = RUNNING.exec(line);
      if (found) resolve((found[1] as string).replace('localhost', '127.0.0.1'));
    });
    void exited.then((code) =>
      reject(new Error(`The laptop runtime stopped before it served (exit ${code}):\n${output}`)),
    );
  });
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      // SIGTERM: main.ts stops the server and DynamoDB Local before it leaves.
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
};
