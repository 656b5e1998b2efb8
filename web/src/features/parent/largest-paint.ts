import {
  createContext,
  createElement,
  type ReactNode,
  startTransition,
  useContext,
  useEffect,
  useState,
} from 'react';

/** How long a page waits for its largest paint to be reported before it goes on anyway. */
const PAINT_WAIT_MS = 2_000;

/**
 * Calls `run` once what the page has just drawn has been painted: when the browser reports that
 * paint (its largest-contentful-paint entry, timed after the frame is shown), not in the frame
 * that draws it (a request started by a frame's own callbacks counts as before its paint, and
 * Lighthouse counts every request that ended before the largest paint in it: ADR 0026, h57g,
 * h57k); where the browser reports none (Safari), after the next frame; where it reports none in
 * `PAINT_WAIT_MS` (a hidden tab), then. Answers a function that cancels it. The driver page keeps
 * its own copy (`afterPaint` in features/buses/bus-driver-field.tsx): shared from one module, the
 * build made it a chunk of its own, one more request for both pages before their paint.
 */
export const afterLargestPaint = (run: () => void) => {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    observer?.disconnect();
    window.clearTimeout(timer);
    run();
  };
  const drawn = performance.now();
  const observer = PerformanceObserver.supportedEntryTypes?.includes('largest-contentful-paint')
    ? new PerformanceObserver((list) => {
        if (list.getEntries().some((entry) => entry.startTime >= drawn)) once();
      })
    : undefined;
  observer?.observe({ type: 'largest-contentful-paint', buffered: true });
  const timer = observer
    ? window.setTimeout(once, PAINT_WAIT_MS)
    : window.setTimeout(() => requestAnimationFrame(() => window.setTimeout(once, 0)), 0);
  return () => {
    done = true;
    observer?.disconnect();
    window.clearTimeout(timer);
  };
};

/**
 * False until the page drawn while `drawn` turned true has been painted (`afterLargestPaint`),
 * then true for good: what lies below a phone's first screen is read or loaded from then on. The
 * page drawn again with it is drawn in a transition (h57m): React renders it in slices and lets
 * the browser in between, not in one long task after the paint.
 */
export const useLargestPaintDone = (drawn: boolean) => {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    if (!drawn || painted) return;
    return afterLargestPaint(() => startTransition(() => setPainted(true)));
  }, [drawn, painted]);
  return painted;
};

const Painted = createContext(false);

/**
 * Holds `useLargestPaintDone` for what it wraps, drawn once with it (`ParentLayout`; issue 57,
 * h57d): when the paint is reported, only what reads it (`usePainted`: the language switch, the
 * dashboard's arrivals, changes' lists and trusted adults) is drawn again, not the page around
 * them (its header, the children's cards, the change forms: ~150 components a phone drew again in
 * the task after its paint).
 */
export function PaintedProvider({ children }: { children: ReactNode }) {
  return createElement(Painted.Provider, { value: useLargestPaintDone(true) }, children);
}

/** Whether the page inside `PaintedProvider` has been painted (false outside one). */
export const usePainted = () => useContext(Painted);

/** At most this long after the paint before `useIdleAfterPaint` turns true on a browser never idle. */
const IDLE_WAIT_MS = 1_000;

/**
 * True once the page inside `PaintedProvider` has been painted and the browser has then been idle
 * (`requestIdleCallback`, at most `IDLE_WAIT_MS`; where there is none, Safari, the next task): what
 * nobody needs in the moments after the paint (the language switch's own SegmentedControl) is drawn
 * in a task of its own, not in the one that starts the reads and the code that come after the paint
 * (h57p: together, one task of 60–120 ms at a phone's 4× slower CPU). Set in a transition.
 */
export const useIdleAfterPaint = () => {
  const painted = usePainted();
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (!painted || idle) return;
    const done = () => startTransition(() => setIdle(true));
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(done, { timeout: IDLE_WAIT_MS });
      return () => window.cancelIdleCallback(handle);
    }
    const timer = window.setTimeout(done, 0);
    return () => window.clearTimeout(timer);
  }, [painted, idle]);
  return idle;
};
