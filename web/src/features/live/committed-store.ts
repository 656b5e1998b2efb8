import { useEffect, useReducer, useRef } from 'react';

/**
 * A store's value, read in the render and followed from the commit (issue 57, h57t): what
 * `useSyncExternalStore` answers, without its check at the end of a transition. React checks every
 * `useSyncExternalStore` of a render done in a transition once the render is done, and when one
 * changed meanwhile draws the whole transition again at once, without yielding: on the front queue
 * the live connection's opening or a clock's tick while the lists were drawn in slices made React
 * draw them all again in one long task. Here a change draws again only the components whose value
 * changed, once; a change between the render and the subscription is seen by a check made as it
 * subscribes, so none is missed. Two components may show two values for one frame (a render in
 * slices across a change), the next render shows the new one. `snapshot` answers a value compared
 * with `Object.is` (a string, number or boolean, or the same object while unchanged).
 */
export const useCommittedStore = <T>(
  subscribe: (changed: () => void) => () => void,
  snapshot: () => T,
): T => {
  const value = snapshot();
  const [, redraw] = useReducer((count: number) => count + 1, 0);
  const drawn = useRef({ snapshot, value });
  useEffect(() => {
    drawn.current = { snapshot, value };
  });
  useEffect(() => {
    const check = () => {
      const { snapshot: latest, value: shown } = drawn.current;
      if (!Object.is(latest(), shown)) redraw();
    };
    const stop = subscribe(check);
    check();
    return stop;
  }, [subscribe]);
  return value;
};
