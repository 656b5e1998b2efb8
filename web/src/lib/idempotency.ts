/** The header naming one user action; the server applies an action once however often it is sent. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** A new key for one user action (a UUID). */
export const idempotencyKey = (): string => crypto.randomUUID();

/** A request that got no answer at all (fetch rejects with a TypeError), as opposed to an error answer. */
export const isNetworkFailure = (error: unknown): boolean => error instanceof TypeError;

/**
 * Sends a mutation with its key. A request that got no answer is kept by the
 * caller (the outbox) and sent again later with the same key: the server
 * applies it once.
 */
export const sendOnce = <T>(key: string, send: (headers: Record<string, string>) => Promise<T>): Promise<T> =>
  send({ [IDEMPOTENCY_KEY_HEADER]: key });
