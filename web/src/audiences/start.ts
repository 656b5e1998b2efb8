import { authQueries } from '../features/auth/auth.queries';
import { healthQueries } from '../features/health/health.queries';
import { appQueryClient } from '../lib/query-client';

/**
 * The loader of an audience whose screens ask who is signed in first: the question leaves as
 * the route matches, beside the screen's code, instead of once that code has loaded and drawn
 * (on a phone over cellular, a round trip less before the first paint). It does not wait for
 * the answer: the screen reads it from the cache as usual.
 */
export const askWhoIsSignedIn = () => {
  void appQueryClient.prefetchQuery(authQueries.me());
  return null;
};

/** The loader of the parent sign-in: whether this is the demo (it then shows the demo account) comes with who is signed in. */
export const askWhetherDemo = () => {
  void appQueryClient.prefetchQuery(healthQueries.status());
  return null;
};
