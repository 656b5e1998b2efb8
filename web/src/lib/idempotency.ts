/** The header naming one user action; the server applies an action once however often it is sent. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** A new key for one user action (a UUID; `crypto.randomUUID` needs a secure context, so a fallback). */
export const idempotencyKey = (): string => {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
};

/** Waits before each resend of a request whose answer never came (the connection dropped). */
const RETRY_DELAYS_MS = [400, 1500];

/** The browser says there is no connection (a resend would fail the same way). */
const isOffline = () => (globalThis as { navigator?: { onLine?: boolean } }).navigator?.onLine === false;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A request that got no answer at all (fetch rejects with a TypeError), as opposed to an error answer. */
export const isNetworkFailure = (error: unknown): boolean => error instanceof TypeError;

/**
 * Sends a mutation with its key, and sends it again with the same key when
 * no answer came (it may have reached the server: the key makes the resend
 * safe). An answer, even an error, is final.
 */
export const sendOnce = async <T>(
  key: string,
  send: (headers: Record<string, string>) => Promise<T>,
): Promise<T> => {
  const headers = { [IDEMPOTENCY_KEY_HEADER]: key };
  for (let attempt = 0; ; attempt++) {
    try {
      return await send(headers);
    } catch (error) {
      const delay = RETRY_DELAYS_MS[attempt];
      if (!isNetworkFailure(error) || delay === undefined || isOffline()) throw error;
      await sleep(delay);
    }
  }
};
