import { afterEach, describe, expect, it, vi } from 'vitest';
import { backoffMs, sleep } from '../src/wait';

describe('the wait before a retry', () => {
  it('starts at the first wait and doubles on each further retry', () => {
    expect([1, 2, 3, 4].map((retry) => backoffMs(retry, 500))).toEqual([500, 1000, 2000, 4000]);
  });

  it('never waits longer than its cap', () => {
    expect(backoffMs(10, 1000, { capMs: 30_000 })).toBe(30_000);
    expect(backoffMs(2, 1000, { capMs: 30_000 })).toBe(2000);
  });

  it('spreads collided retries: full jitter from nothing to the wait, spread from half to one and a half', () => {
    expect(backoffMs(3, 10, { jitter: 'full', random: () => 0 })).toBe(0);
    expect(backoffMs(3, 10, { jitter: 'full', random: () => 0.5 })).toBe(20);
    expect(backoffMs(3, 10, { jitter: 'spread', random: () => 0 })).toBe(20);
    expect(backoffMs(3, 10, { jitter: 'spread', random: () => 0.999 })).toBeCloseTo(59.96);
  });
});

describe('sleep', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('resolves once its time has passed, and at once for a time already past', async () => {
    vi.useFakeTimers();
    let done = false;
    const waiting = sleep(1000).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    expect(done).toBe(true);
    const past = sleep(-50);
    await vi.advanceTimersByTimeAsync(0);
    await expect(past).resolves.toBeUndefined();
  });
});
