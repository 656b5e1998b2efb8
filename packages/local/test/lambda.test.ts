import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { meter } from '@curbside/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { invoke, resolveModulesWith } from '../src/lambda';

/**
 * A stand-in for the health route: 40 ms of CPU (this thread's), then a 400 ms
 * wait (a slow DynamoDB call), then 20 ms more.
 */
const BUSY_HANDLER = `
const cpu = () => { const used = process.threadCpuUsage(); return used.user + used.system; };
const busy = (ms) => { const until = cpu() + ms * 1000; while (cpu() < until); };
export const handler = async () => {
  busy(40);
  await new Promise((resolve) => setTimeout(resolve, 400));
  busy(20);
  return { statusCode: 200, body: 'ok' };
};
`;

describe("the laptop runtime's meter of an invocation", () => {
  beforeEach(() => {
    process.env.CURBSIDE_METER = '1';
    meter.reset();
    const folder = mkdtempSync(join(tmpdir(), 'curbside-lambda-'));
    const file = join(folder, 'busy.mjs');
    writeFileSync(file, BUSY_HANDLER);
    resolveModulesWith({ 'http/health': file });
  });
  afterEach(() => {
    delete process.env.CURBSIDE_METER;
    meter.reset();
    resolveModulesWith({});
  });

  it("counts the handler's own CPU (lambda.cpuMs): its 60 ms of work, not its 400 ms wait", async () => {
    await invoke('http/health', {});
    const counted = meter.snapshot()['http/health'] ?? {};
    expect(counted['lambda.invocations']).toBe(1);
    expect(counted['lambda.ms']).toBeGreaterThanOrEqual(400);
    // A generous band for a shared machine: the wait would add 400.
    expect(counted['lambda.cpuMs']).toBeGreaterThanOrEqual(60);
    expect(counted['lambda.cpuMs']).toBeLessThan(250);
  });

  it('counts no CPU while the meter is off', async () => {
    delete process.env.CURBSIDE_METER;
    await invoke('http/health', {});
    expect(meter.snapshot()).toEqual({});
  });
});
