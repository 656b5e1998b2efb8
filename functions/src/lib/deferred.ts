import { AsyncLocalStorage } from 'node:async_hooks';

/** The work a request left to finish beside its answer's keeping (its fan-out), while one is kept. */
const scope = new AsyncLocalStorage<Promise<unknown>[]>();

/**
 * Runs a request's service with the work it hands to `besideTheAnswer` put
 * in `left` rather than awaited: the caller awaits it together with the
 * answer's keeping (the Idempotency-Key's UpdateItem), so the two take one
 * round trip instead of two (ADR 0027). The caller must await `left`
 * whatever the outcome.
 */
export const leavingBesideTheAnswer = <T>(left: Promise<unknown>[], work: () => Promise<T>): Promise<T> =>
  scope.run(left, work);

/**
 * A committed change's fan-out, which never fails its request: awaited where
 * it is started, or, in a request whose answer is kept for its
 * Idempotency-Key, beside that keeping (the answer is still sent only once
 * both are done, so a screen hears of a change no later than before).
 */
export const besideTheAnswer = (work: Promise<void>): Promise<void> => {
  const left = scope.getStore();
  if (!left) return work;
  left.push(work);
  return Promise.resolve();
};
