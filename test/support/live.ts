import { expect, vi } from 'vitest';
import WebSocket from 'ws';

/**
 * The one WebSocket test client: a live connection on `/ws` as a screen, a bus driver's
 * phone or a display opens it, that keeps every message it receives. Tests read it two ways:
 * in order (`take`: the next message not yet taken, from `inbox`) or by type (`next`: the
 * first message of a type in `messages`, the whole record, which a test may clear).
 */

/** A message the server sent (parsed JSON; `UNPARSEABLE` with the raw text when it was not JSON). */
export type LiveMessage = { type: string; data?: any; [key: string]: any };

export interface LiveClient {
  socket: WebSocket;
  /** Every message received, in order. */
  messages: LiveMessage[];
  /** Messages received and not yet taken (`take`). */
  inbox: LiveMessage[];
  /** Resolves with the next message not yet taken, or rejects after `timeoutMs`. */
  take(timeoutMs?: number): Promise<LiveMessage>;
  /** Waits until a message of `type` is among `messages` (or fails after `ms`). */
  next(type: string, ms?: number): Promise<LiveMessage>;
  /** Sends `message` as JSON. */
  send(message: unknown): void;
  close(): Promise<void>;
}

export interface LiveOptions {
  /** Request headers of the upgrade (a session `cookie`, an `origin`). */
  headers?: Record<string, string>;
  /** A session cookie (the same as `headers.cookie`). */
  cookie?: string;
  /** The query of the address, e.g. `?t=` a bus or display link's token. */
  query?: string;
  /** The path (default `/ws`). */
  path?: string;
}

/** The WebSocket address of the laptop server at `serverUrl` (`/ws` unless another path). */
export const wsUrlOf = (serverUrl: string, path = '/ws') => `${serverUrl.replace(/^http/, 'ws')}${path}`;

const socketOf = (serverUrl: string, { headers = {}, cookie, query = '', path }: LiveOptions) =>
  new WebSocket(`${wsUrlOf(serverUrl, path)}${query}`, {
    headers: { ...headers, ...(cookie ? { cookie } : {}) },
  });

/** Opens a live connection and waits until the server accepted it. */
export const openLive = async (serverUrl: string, options: LiveOptions = {}): Promise<LiveClient> => {
  const socket = socketOf(serverUrl, options);
  const messages: LiveMessage[] = [];
  const inbox: LiveMessage[] = [];
  let waiter: ((message: LiveMessage) => void) | undefined;
  socket.on('message', (raw) => {
    let message: LiveMessage;
    try {
      message = JSON.parse(raw.toString());
    } catch {
      message = { type: 'UNPARSEABLE', data: raw.toString() };
    }
    messages.push(message);
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
    messages,
    inbox,
    take: (timeoutMs = 3000) => {
      const first = inbox.shift();
      if (first) return Promise.resolve(first);
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
    async next(type: string, ms = 3000) {
      try {
        return await vi.waitFor(
          () => {
            const found = messages.find((message) => message.type === type);
            if (!found) throw new Error(`no ${type} yet`);
            return found;
          },
          { timeout: ms, interval: 20 },
        );
      } catch {
        throw new Error(
          `No ${type} message within ${ms} ms; got ${messages.map((m) => m.type).join(', ') || 'nothing'}`,
        );
      }
    },
    send: (message) => socket.send(JSON.stringify(message)),
    close: async () => {
      if (socket.readyState === WebSocket.CLOSED) return;
      const closed = new Promise((resolve) => socket.once('close', resolve));
      socket.close();
      await closed;
    },
  };
};

/** Answers the HTTP status of a refused upgrade, or 101 when the socket opened (then closes it). */
export const upgradeStatus = (serverUrl: string, options: LiveOptions = {}) =>
  new Promise<number>((resolve, reject) => {
    const socket = socketOf(serverUrl, options);
    socket.once('open', () => {
      socket.terminate();
      resolve(101);
    });
    socket.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      response.resume();
      socket.terminate();
    });
    socket.once('error', (error) => {
      if (!/Unexpected server response|closed before/.test(error.message)) reject(error);
    });
  });

/** Sends a ping and waits for its pong: every event published before it reached the socket first. */
export const settled = async (screen: LiveClient) => {
  const pongs = screen.messages.filter((message) => message.type === 'pong').length;
  screen.send({ type: 'ping' });
  await vi.waitFor(
    () => expect(screen.messages.filter((message) => message.type === 'pong').length).toBeGreaterThan(pongs),
    { timeout: 10_000, interval: 20 },
  );
};

/** Subscribes a teacher's screen to classrooms, then forgets what it heard before. */
export const subscribeClassrooms = async (screen: LiveClient, classroomIds: number[]) => {
  screen.send({ action: 'subscribe', classroomIds, order: 1 });
  await screen.next('subscribed', 10_000);
  screen.messages.length = 0;
};

/** Polls `check` until it answers true, or fails after `timeoutMs`. */
export const eventually = async (check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> => {
  await vi.waitFor(
    async () => {
      if (!(await check())) throw new Error(`Condition not met within ${timeoutMs} ms`);
    },
    { timeout: timeoutMs, interval: 25 },
  );
};
