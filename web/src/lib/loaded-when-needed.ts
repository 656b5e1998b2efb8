import { useEffect, useState } from 'react';
import { afterPaintWhenIdle } from './after-paint';

/**
 * A component's code fetched when it is first needed, or ahead of that once the screen has been
 * painted and the browser is idle (issue 57, h57b): a dialog drawn only once opened
 * (`useDrawnWhenOpened`) need not hold its Modal's code before a screen's first paint. A fetch
 * that fails is tried again the next time the code is needed.
 */
export const loadedWhenNeeded = <T>(load: () => Promise<T>) => {
  let loaded: T | undefined;
  let pending: Promise<T> | undefined;
  const fetch = () => {
    pending ??= load().then(
      (module) => {
        loaded = module;
        return module;
      },
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };
  return {
    /** Fetches the code once the screen is painted and the browser idle; answers a cancel. */
    ahead: () => afterPaintWhenIdle(() => void fetch().catch(() => {})),
    /**
     * The code once `needed` (undefined until it has come) and whether its fetch failed (until
     * it is needed again).
     */
    useLoaded: (needed: boolean) => {
      const [, setCame] = useState(0);
      const [failed, setFailed] = useState(false);
      useEffect(() => {
        if (!needed) {
          setFailed(false);
          return;
        }
        if (loaded) return;
        let live = true;
        fetch().then(
          () => live && setCame((count) => count + 1),
          () => live && setFailed(true),
        );
        return () => {
          live = false;
        };
      }, [needed]);
      return { loaded, failed: needed && failed };
    },
  };
};
