import type { TimeoutProvider } from '@tanstack/react-query';

interface Waiting {
  at: number;
  callback: () => void;
}

/**
 * Timeouts on one browser timer (issue 57): they wait in a list, and one browser timer waits for the
 * earliest. For TanStack Query's (its `timeoutManager`'s provider): a query starts one to forget
 * itself (its `gcTime`) as it is made and whenever its last reader leaves, and a reader of a list
 * that goes stale (a child's trusted adults, after 5 min) one more; the front queue's first draw made
 * dozens, each a browser timer, and at Lighthouse's load each was traced with its stack (the queue's
 * nine children's lists asked for ahead were 10–35 ms traced, half of it their timers). And for the
 * waits for a screen's paint (`afterPaint`), each with its longest wait. Intervals (a list polled)
 * stay the browser's own. Timed by `now`: `Date.now()` by default, which a test's fake clock moves;
 * `performance.now()` where a change of the device's clock must not move the waits.
 */
export const oneTimer = (now: () => number = () => Date.now()): TimeoutProvider<number> => {
  const waiting = new Map<number, Waiting>();
  let last = 0;
  let armed: { at: number; handle: ReturnType<typeof setTimeout> } | null = null;

  const fire = () => {
    armed = null;
    const time = now();
    const due = [...waiting].filter(([, { at }]) => at <= time);
    for (const [id] of due) waiting.delete(id);
    for (const [, { callback }] of due) {
      try {
        callback();
      } catch (error) {
        // As if it had run in a task of its own: reported, and the others still run.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
    arm();
  };

  /** The browser timer, for the earliest: set again only when one earlier than it comes. */
  const arm = () => {
    let earliest = Number.POSITIVE_INFINITY;
    for (const { at } of waiting.values()) earliest = Math.min(earliest, at);
    if (armed && armed.at <= earliest) return;
    if (armed) clearTimeout(armed.handle);
    armed = null;
    if (earliest === Number.POSITIVE_INFINITY) return;
    // A browser fires a timer of more than 2^31 - 1 ms at once: a later one is waited for in steps.
    const delay = Math.min(2 ** 31 - 1, Math.max(0, earliest - now()));
    armed = { at: earliest, handle: setTimeout(fire, delay) };
  };

  return {
    setTimeout: (callback, delay) => {
      last += 1;
      waiting.set(last, { at: now() + Math.max(0, delay), callback });
      arm();
      return last;
    },
    clearTimeout: (id) => {
      // The browser timer stays: it finds nothing due when it fires, and waits for the next.
      if (id !== undefined) waiting.delete(id);
    },
    setInterval: (callback, delay) => setInterval(callback, delay) as unknown as number,
    clearInterval: (id) => clearInterval(id),
  };
};
