import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { oneTimer } from '../src/lib/one-timer';

/**
 * Issue 57: TanStack Query's timeouts on one browser timer (`oneTimer`). Each runs at its time, in
 * the order of their times, a cleared one not at all, and however many wait, the browser holds one
 * timer for them.
 */
describe('oneTimer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs each at its time, in the order of their times, and never one cleared', () => {
    const timers = oneTimer();
    const ran: string[] = [];
    timers.setTimeout(() => ran.push('c at 300'), 300);
    timers.setTimeout(() => ran.push('a at 100'), 100);
    const cleared = timers.setTimeout(() => ran.push('cleared'), 150);
    timers.setTimeout(() => ran.push('b at 200'), 200);
    timers.clearTimeout(cleared);
    vi.advanceTimersByTime(99);
    expect(ran).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(ran).toEqual(['a at 100']);
    vi.advanceTimersByTime(200);
    expect(ran).toEqual(['a at 100', 'b at 200', 'c at 300']);
    timers.clearTimeout(undefined);
  });

  it('holds one browser timer however many wait, set again only for an earlier one', () => {
    const timers = oneTimer();
    for (let i = 0; i < 50; i++) timers.setTimeout(() => {}, 5 * 60_000 + i);
    expect(vi.getTimerCount()).toBe(1);
    const ran: number[] = [];
    timers.setTimeout(() => ran.push(1_000), 1_000);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(1_000);
    expect(ran).toEqual([1_000]);
    // The next wait is the 50 others': one browser timer still.
    expect(vi.getTimerCount()).toBe(1);
  });

  it('runs the others when one throws, and reports what it threw', () => {
    const timers = oneTimer();
    const ran: string[] = [];
    timers.setTimeout(() => {
      throw new Error('broken');
    }, 10);
    timers.setTimeout(() => ran.push('after'), 10);
    const reported = vi.spyOn(globalThis, 'queueMicrotask').mockImplementation(() => {});
    vi.advanceTimersByTime(10);
    expect(ran).toEqual(['after']);
    expect(reported).toHaveBeenCalledTimes(1);
    reported.mockRestore();
  });

  it("forgets a query nobody reads once its gcTime is over, as TanStack's own timers did", async () => {
    const { timeoutManager } = await import('@tanstack/react-query');
    timeoutManager.setTimeoutProvider(oneTimer());
    const client = new QueryClient({ defaultOptions: { queries: { gcTime: 60_000 } } });
    client.setQueryData(['list'], [1, 2, 3]);
    vi.advanceTimersByTime(59_999);
    expect(client.getQueryData(['list'])).toEqual([1, 2, 3]);
    vi.advanceTimersByTime(1);
    expect(client.getQueryData(['list'])).toBeUndefined();
  });
});
