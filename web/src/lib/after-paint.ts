import { useEffect, useState } from 'react';
import { oneTimer } from './one-timer';

/** How long a screen waits for its largest paint to be reported before it goes on anyway. */
const PAINT_WAIT_MS = 2_000;

/**
 * The same wait for a screen drawn on a page painted before (`inApp`): what it draws may be no
 * larger than what the page showed already, and then no paint is reported for it.
 */
const IN_APP_PAINT_WAIT_MS = 500;

/**
 * Whether the visitor has tapped, clicked or typed since the page loaded (the browser's first-input
 * entry): from then on it reports no new largest paint. A browser without that entry is taken to
 * have had one (only the next frame is waited for there).
 */
const interacted = () =>
  !PerformanceObserver.supportedEntryTypes?.includes('first-input') ||
  performance.getEntriesByType('first-input').length > 0;

/** How long each waits at most for the paint: on one browser timer for them all (`oneTimer`). */
const longestWaits = oneTimer(() => performance.now());

/** Who waits for the page's next largest paint: each with when it drew (`drawn`) and its call. */
const waiting = new Set<{ drawn: number; once: () => void }>();
let paints: PerformanceObserver | undefined;

/**
 * One observer of the page's largest paints for every `afterPaint` (issue 57): each made its own,
 * and the front queue's first draw made five (the screen's lists, the toasts, the header's menus,
 * the Scan's and the alert's code), each observed with the paints reported before, in the effects
 * of the commit that painted the keypad. False where the browser reports none.
 */
const largestPaints = () => {
  if (paints) return true;
  if (!PerformanceObserver.supportedEntryTypes?.includes('largest-contentful-paint')) return false;
  paints = new PerformanceObserver((list) => {
    const entries = list.getEntries();
    for (const waiter of [...waiting]) {
      if (entries.some((entry) => entry.startTime >= waiter.drawn)) waiter.once();
    }
  });
  paints.observe({ type: 'largest-contentful-paint', buffered: true });
  return true;
};

/**
 * Calls `run` once what the page has just drawn has been painted: when the browser reports that
 * paint (its largest-contentful-paint entry, timed after the frame is shown), not in the frame
 * that draws it (a request started by a frame's own callbacks counts as before its paint); where
 * the browser reports none, after the next frame; where it reports none in 2 s, then. A screen
 * opened from another of the app (`inApp`, on a page painted before) may get no new largest
 * paint: none is reported once the visitor has tapped or typed, and only the next frame is waited
 * for then; before that (the front queue's keypad drawn on the page's first load, after the
 * shell's loader), its paint is waited for, 0.5 s at most (what it drew may be no larger than what
 * the page showed before). Answers a function that cancels it.
 */
export const afterPaint = (run: () => void, { inApp = false } = {}) => {
  let done = false;
  let frame = 0;
  const once = () => {
    if (done) return;
    done = true;
    waiting.delete(waiter);
    stopTimer();
    run();
  };
  const nextFrame = () => {
    frame = requestAnimationFrame(() => window.setTimeout(once, 0));
  };
  const waiter = { drawn: performance.now(), once };
  const painted = inApp && performance.getEntriesByType('paint').length > 0 && interacted();
  const observed = !painted && largestPaints();
  if (observed) waiting.add(waiter);
  let stopTimer: () => void;
  if (observed) {
    const wait = longestWaits.setTimeout(once, inApp ? IN_APP_PAINT_WAIT_MS : PAINT_WAIT_MS);
    stopTimer = () => longestWaits.clearTimeout(wait);
  } else {
    const next = window.setTimeout(nextFrame, 0);
    stopTimer = () => window.clearTimeout(next);
  }
  return () => {
    done = true;
    waiting.delete(waiter);
    stopTimer();
    cancelAnimationFrame(frame);
  };
};

/**
 * Calls `run` once the page has been painted (`afterPaint`) and then the browser is idle (after
 * 200 ms where it cannot say): code fetched ahead of its first use, after what the screen shows.
 * Answers a function that cancels it, up to the idle moment.
 */
export const afterPaintWhenIdle = (run: () => void) => {
  let cancelled = false;
  const idle = window.requestIdleCallback ?? ((then: () => void) => window.setTimeout(then, 200));
  const stop = afterPaint(() => idle(() => !cancelled && run()));
  return () => {
    cancelled = true;
    stop();
  };
};

/**
 * False until the screen that calls it has been painted (`afterPaint`) with its first part drawn
 * (`drawn`: counted from the commit that draws it, not from a loader's before), then true for good:
 * what the first paint does not need (a list and its read) is drawn after it.
 */
export const usePainted = (drawn = true) => {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    if (painted || !drawn) return;
    return afterPaint(() => setPainted(true), { inApp: true });
  }, [painted, drawn]);
  return painted;
};
