// The toasts' container (`toasts.tsx`) loads apart from the first screen (ADR 0026): with the
// first toast (`App.tsx`), or ahead of it on the staff tablets. Here, beside it, so that
// `lib/toasts` (which the container reads) never imports a component.

/** The toasts' container's code (`components/toasts.tsx`), asked for once. */
export const loadToasts = () => import('./toasts');

/**
 * The car-line tablets fetch the container once their screen has loaded and the browser is idle,
 * ahead of the first toast: a toast may come while the tablet is offline (an action kept in the
 * outbox), when its code could no longer be fetched. Not before the first paint.
 */
export const loadToastsWhenIdle = () => {
  const load = () => {
    const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 200));
    idle(() => void loadToasts().catch(() => {}));
  };
  if (document.readyState === 'complete') load();
  else window.addEventListener('load', load, { once: true });
};
