import { startTransition, useEffect, useState } from 'react';

/**
 * Whether the secondary part of a screen may be drawn (issue 57): false until `ready` has been
 * true through a paint, then true for good. The part it guards renders in a transition, which
 * React splits into slices of a few milliseconds, so the first paint of what the visitor came
 * for is not held up by what lies below it and the phone's main thread is never blocked long.
 * A tab in the background paints no frames: it does not wait for one longer than `FRAME_WAIT_MS`.
 * Guard only what is drawn below the screen's first part: it appears under it, moving nothing.
 */
export const useAfterPaint = (ready: boolean) => {
  const [after, setAfter] = useState(false);
  useEffect(() => {
    if (!ready || after) return;
    let done = false;
    const draw = () => {
      if (done) return;
      done = true;
      startTransition(() => setAfter(true));
    };
    // The frame that paints the first part, then the task after it.
    const frame = requestAnimationFrame(() => setTimeout(draw, 0));
    const fallback = setTimeout(draw, FRAME_WAIT_MS);
    return () => {
      done = true;
      cancelAnimationFrame(frame);
      clearTimeout(fallback);
    };
  }, [ready, after]);
  return after;
};

/** How long `useAfterPaint` waits for a frame (a hidden tab paints none). */
export const FRAME_WAIT_MS = 250;
