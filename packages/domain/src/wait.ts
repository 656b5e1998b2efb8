/**
 * Waiting, the one way (issue 56): a pause, and the wait before a retry.
 * Every retry loop of the functions, the store, the laptop runtime and the
 * tests' support waits with these.
 */

/** Waits `ms` milliseconds (none when `ms` is not positive). */
export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

export interface Backoff {
  /** The longest wait, whatever the retry. */
  capMs?: number;
  /**
   * Spreads retries that collided so they do not collide again: `full`, anywhere
   * from nothing to the wait; `spread`, from half to one and a half times it.
   */
  jitter?: 'full' | 'spread';
  /** A number in [0, 1): `Math.random` unless a test fixes it. */
  random?: () => number;
}

/**
 * The wait before the `retry`-th retry (1 for the first): `firstMs`, doubled
 * on each further retry, at most `capMs`, then spread by `jitter`.
 */
export const backoffMs = (retry: number, firstMs: number, options: Backoff = {}): number => {
  const { capMs = Number.POSITIVE_INFINITY, jitter, random = Math.random } = options;
  const wait = Math.min(capMs, firstMs * 2 ** Math.max(0, retry - 1));
  if (jitter === 'full') return wait * random();
  if (jitter === 'spread') return wait * (0.5 + random());
  return wait;
};
