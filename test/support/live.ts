import { expect, vi } from 'vitest';
import WebSocket from 'ws';

/** A WebSocket client on `/ws` that records every message it receives. */
export const connectLive = async (baseUrl: string, cookie?: string) => {
  const url = `${baseUrl.replace(/^http/, 'ws')}/ws`;
  const socket = new WebSocket(url, cookie ? { headers: { cookie } } : {});
  const messages: Array<{ type: string; data?: any }> = [];
  socket.on('message', (raw) => {
    try {
      messages.push(JSON.parse(raw.toString()));
    } catch {
      messages.push({ type: 'UNPARSEABLE', data: raw.toString() });
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    messages,
    /** Waits until a message of the type arrives (or fails after `ms`). */
    async next(type: string, ms = 3000) {
      const deadline = Date.now() + ms;
      while (Date.now() < deadline) {
        const found = messages.find((message) => message.type === type);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(
        `No ${type} message within ${ms} ms; got ${messages.map((m) => m.type).join(', ') || 'nothing'}`,
      );
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (socket.readyState === WebSocket.CLOSED) return resolve();
        socket.once('close', () => resolve());
        socket.close();
      }),
  };
};

type LiveScreen = Awaited<ReturnType<typeof connectLive>>;

/** Sends a ping and waits for its pong: every event published before it reached the socket first. */
export const settled = async (screen: LiveScreen) => {
  const pongs = screen.messages.filter((message) => message.type === 'pong').length;
  screen.socket.send(JSON.stringify({ type: 'ping' }));
  await vi.waitFor(
    () => expect(screen.messages.filter((message) => message.type === 'pong').length).toBeGreaterThan(pongs),
    { timeout: 10_000, interval: 20 },
  );
};

/** Subscribes a teacher's screen to classrooms, then forgets what it heard before. */
export const subscribeClassrooms = async (screen: LiveScreen, classroomIds: number[]) => {
  screen.socket.send(JSON.stringify({ action: 'subscribe', classroomIds, order: 1 }));
  await screen.next('subscribed', 10_000);
  screen.messages.length = 0;
};
