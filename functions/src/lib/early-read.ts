/**
 * A read the route started beside the sign-in (`EarlyReads`), or the same read
 * made now when it was not started or failed: the service never answers from
 * a failed early read.
 */
export const earlyOr = <T>(early: Promise<T> | undefined, read: () => Promise<T>): Promise<T> =>
  early ? early.catch(read) : read();
