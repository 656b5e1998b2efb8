import { WebSocket } from 'ws';

/** A WebSocket client that keeps every message it receives, for the live-connection tests. */
export interface LiveClient {
  socket: WebSocket;
  /** Resolves with the next message not yet taken (parsed JSON), or rejects after `timeoutMs`. */
  next(timeoutMs?: number): Promise<unknown>;
  /** Messages received and not yet taken. */
  inbox: unknown[];
  close(): Promise<void>;
}

export const wsUrlOf = (serverUrl: string) => `${serverUrl.replace(/^http/, 'ws')}/ws`;

/**
 * Opens `/ws` (with the given headers, e.g. a session cookie, and query,
 * e.g. `?t=` a bus link's token) and waits until the server accepted it.
 */
export const openClient = async (
  serverUrl: string,
  headers: Record<string, string> = {},
  query = '',
): Promise<LiveClient> => {
  const socket = new WebSocket(`${wsUrlOf(serverUrl)}${query}`, { headers });
  const inbox: unknown[] = [];
  let waiter: ((message: unknown) => void) | undefined;
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString());
    if (waiter) {
      const resolve = waiter;
      waiter = undefined;
      resolve(message);
    } else inbox.push(message);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    inbox,
    next: (timeoutMs = 3000) => {
      if (inbox.length > 0) return Promise.resolve(inbox.shift());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiter = undefined;
          reject(new Error(`No message within ${timeoutMs} ms`));
        }, timeoutMs);
        waiter = (message) => {
          clearTimeout(timer);
          resolve(message);
        };
      });
    },
    close: async () => {
      if (socket.readyState === WebSocket.CLOSED) return;
      const closed = new Promise((resolve) => socket.once('close', resolve));
      socket.close();
      await closed;
    },
  };
};

/** Polls `check` until it answers true, or fails after `timeoutMs`. */
export const eventually = async (check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};
