import { sleep } from '@curbside/domain';
/**
 * Throttle counts live in fixed windows (`THROTTLE#{scope}#{window start}`): a
 * test whose attempts straddle a window's end sees the later ones counted in
 * a new window. Before such a test counts, this waits for the next window
 * when less than `marginMs` of the current one is left.
 */
export const awayFromWindowEdge = async (windowMs: number, marginMs = 30_000): Promise<void> => {
  const left = windowMs - (Date.now() % windowMs);
  if (left < marginMs) await sleep(left + 10);
};
