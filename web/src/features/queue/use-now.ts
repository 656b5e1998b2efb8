import { useEffect, useState } from 'react';
import { useCommittedStore } from '../live/committed-store';

/** The current time, refreshed every `intervalMs`, so waits and overdue highlights keep up. */
export const useNow = (intervalMs = 1000) => {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
};

/** One clock ticking every second for every `useEverySecond` on the page (while any is mounted). */
const secondClock = (() => {
  const listeners = new Set<() => void>();
  let timer: ReturnType<typeof setInterval> | null = null;
  let now = Date.now();
  return {
    /** The time of the last tick while it ticks (one value for a whole render), else now. */
    now() {
      if (timer === null) now = Date.now();
      return now;
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      if (timer === null) {
        // From the time it starts: the first subscriber's check then sees the present second.
        now = Date.now();
        timer = setInterval(() => {
          now = Date.now();
          for (const each of listeners) each();
        }, 1000);
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && timer !== null) {
          clearInterval(timer);
          timer = null;
        }
      };
    },
  };
})();

/**
 * `read(now)` every second, the calling component drawn again only when its answer changes
 * (issue 57: the queue drew every card each second for its wait; now each card draws its wait
 * alone, and its overdue look once, when it turns). `read` answers a string, number or boolean.
 *
 * Not an external store (issue 57, h57t): React checks every `useSyncExternalStore` of a render done
 * in a transition once the render is done, and when one changed meanwhile it draws the whole
 * transition again at once, without yielding. The queue's cards are drawn in a transition in
 * slices (a few ms each); a tick of this clock between two slices (each card reads it twice) made
 * React draw every card of the line again in one long task (`useCommittedStore`).
 */
export const useEverySecond = <T extends string | number | boolean>(read: (now: number) => T): T =>
  useCommittedStore(secondClock.subscribe, () => read(secondClock.now()));
