import { startTransition, useEffect, useState } from 'react';

/**
 * Whether a screen waiting for its reads draws now (issue 57, h57u). An answer read through
 * TanStack Query (`useSyncExternalStore`) makes React draw what read it synchronously, in one task:
 * the staff shell, drawing nothing until who is signed in and the running session are known, drew
 * the whole screen below it (header, keypad) at once when the second answer came after its first
 * render, a 365 ms task at a phone's CPU before the front queue's paint. With this, that forced
 * redraw still draws nothing, and the screen's first draw follows in a transition, which React
 * renders in slices. Ready at the first render (the answers came first), it draws at once as before;
 * not ready again later (the reads started over), nothing is drawn, as before.
 */
export const useDrawnInTransition = (ready: boolean) => {
  const [shown, setShown] = useState(ready);
  useEffect(() => {
    if (ready && !shown) startTransition(() => setShown(true));
  }, [ready, shown]);
  return ready && shown;
};
