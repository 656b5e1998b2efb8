/**
 * The screens' connections: WebSocket clients on `/ws`, signed-in staff (with
 * the session cookie) or anonymous (a bus map). Each counts what it receives;
 * staff connections add every event's delivery latency (arrival minus the
 * server's `sentAt` stamp, same machine so the clocks agree) to a shared
 * sample, and hand every message to the web screen they feed (`web-screen.ts`).
 * Like the web app, every connection pings every 30 s.
 */
import WebSocket from 'ws';
import type { Samples } from './stats';

const PING_EVERY_MS = 30_000;
/** Queue events: a leak when an anonymous screen receives one. */
const QUEUE_EVENTS = new Set([
  'VEHICLE_QUEUED',
  'VEHICLE_REMOVED',
  'QUEUE_STATUS_UPDATED',
  'VEHICLES_REMOVED_FROM_QUEUE',
  'STUDENT_STATUS_UPDATE',
  'ALERT_CREATED',
  'ALERT_DISMISSED',
  'QUEUE_UPDATE',
]);

export class Screen {
  readonly socket: WebSocket;
  /** Events (anything but pong) received. */
  events = 0;
  pongs = 0;
  pingsSent = 0;
  queueEvents = 0;
  unstamped = 0;
  readonly byType = new Map<string, number>();
  /** Where each message goes next: the web screen this connection feeds. */
  onMessage: ((message: unknown) => void) | undefined;
  private pinger: NodeJS.Timeout | undefined;
  private waiters: Array<{ type: string; done: () => void }> = [];

  private constructor(
    readonly kind: 'staff' | 'anonymous' | 'parent',
    url: string,
    cookie: string | undefined,
    latency: Samples | undefined,
  ) {
    this.socket = new WebSocket(url, cookie ? { headers: { cookie } } : {});
    this.socket.on('message', (raw) => {
      const arrived = Date.now();
      let message: { type?: string; sentAt?: number };
      try {
        message = JSON.parse(raw.toString());
      } catch {
        message = { type: 'UNPARSEABLE' };
      }
      const type = message.type ?? 'UNKNOWN';
      if (type === 'pong') {
        this.pongs++;
        return;
      }
      this.events++;
      this.byType.set(type, (this.byType.get(type) ?? 0) + 1);
      if (QUEUE_EVENTS.has(type)) this.queueEvents++;
      if (typeof message.sentAt === 'number') latency?.push(arrived - message.sentAt, arrived);
      else this.unstamped++;
      this.onMessage?.(message);
      const waiting = this.waiters.filter((waiter) => waiter.type === type);
      this.waiters = this.waiters.filter((waiter) => waiter.type !== type);
      for (const waiter of waiting) waiter.done();
    });
  }

  /** Resolves at the next event of `type` (true), or after `timeoutMs` (false). */
  next(type: string, timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const waiter = {
        type,
        done: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((other) => other !== waiter);
        resolve(false);
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  static async open(
    baseUrl: string,
    options: { kind: 'staff' | 'anonymous' | 'parent'; cookie?: string; latency?: Samples },
  ): Promise<Screen> {
    const url = `${baseUrl.replace(/^http/, 'ws')}/ws`;
    if (new URL(url).hostname !== '127.0.0.1') throw new Error('The benchmark only targets 127.0.0.1');
    const screen = new Screen(options.kind, url, options.cookie, options.latency);
    await new Promise<void>((resolve, reject) => {
      screen.socket.once('open', () => resolve());
      screen.socket.once('error', reject);
    });
    // The first ping at a random point of the interval, as screens open at different times.
    const ping = () => {
      if (screen.socket.readyState !== WebSocket.OPEN) return;
      screen.socket.send(JSON.stringify({ type: 'ping' }));
      screen.pingsSent++;
    };
    screen.pinger = setTimeout(() => {
      ping();
      screen.pinger = setInterval(ping, PING_EVERY_MS);
    }, Math.random() * PING_EVERY_MS);
    return screen;
  }

  close(): Promise<void> {
    clearTimeout(this.pinger);
    clearInterval(this.pinger);
    return new Promise((resolve) => {
      if (this.socket.readyState === WebSocket.CLOSED) return resolve();
      const timer = setTimeout(() => {
        this.socket.terminate();
        resolve();
      }, 2000);
      this.socket.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      this.socket.close();
    });
  }
}

/** Counts what a plain `ws` broadcast delivers (the floor): arrival minus `sentAt`, both sub-millisecond. */
export const openFloorClient = async (url: string, latency: Samples) => {
  if (new URL(url).hostname !== '127.0.0.1') throw new Error('The benchmark only targets 127.0.0.1');
  const socket = new WebSocket(url);
  let received = 0;
  socket.on('message', (raw) => {
    const arrived = performance.timeOrigin + performance.now();
    const message = JSON.parse(raw.toString()) as { sentAt: number };
    latency.push(arrived - message.sentAt);
    received++;
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    received: () => received,
    close: () => {
      socket.terminate();
    },
  };
};
