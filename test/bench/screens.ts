/**
 * The screens: WebSocket clients on `/ws`, signed-in staff (with the session
 * cookie) or anonymous (a bus map). Each counts what it receives; staff
 * screens add every event's delivery latency (arrival minus the server's
 * `sentAt` stamp, same machine so the clocks agree) to a shared sample.
 * Like the web app, every screen pings every 30 s.
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

interface QueueEventData {
  entryId?: string;
  id?: string;
  ids?: string[];
  batchId?: number;
  status?: string;
}

export class Screen {
  readonly socket: WebSocket;
  /** Events (anything but pong) received. */
  events = 0;
  pongs = 0;
  pingsSent = 0;
  queueEvents = 0;
  unstamped = 0;
  readonly byType = new Map<string, number>();
  /**
   * The cars this screen shows waiting for a batch, kept from the live events
   * alone (as the back-queue screen's list): queued, minus those put into a
   * batch, sent to overflow, completed or removed.
   */
  private readonly cars = new Map<string, { at: number; waiting: boolean }>();
  /** How many cars the screen shows waiting for a batch. */
  waitingCount = 0;
  private pinger: NodeJS.Timeout | undefined;
  private waiters: Array<{ type: string; done: () => void }> = [];

  private constructor(
    readonly kind: 'staff' | 'anonymous',
    url: string,
    cookie: string | undefined,
    latency: Samples | undefined,
    onEvent: (() => void) | undefined,
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
      this.follow(type, (message as { data?: QueueEventData }).data, message.sentAt ?? arrived);
      onEvent?.();
      const waiting = this.waiters.filter((waiter) => waiter.type === type);
      this.waiters = this.waiters.filter((waiter) => waiter.type !== type);
      for (const waiter of waiting) waiter.done();
    });
  }

  /**
   * Events of one car can arrive out of order (two fan-outs in flight), so the
   * latest by `sentAt` wins; on a tie, leaving wins.
   */
  private follow(type: string, data: QueueEventData | undefined, at: number) {
    if (!data) return;
    const mark = (id: string | undefined, waiting: boolean) => {
      if (!id) return;
      const known = this.cars.get(id);
      if (known && (known.at > at || (known.at === at && !known.waiting))) return;
      if (known?.waiting) this.waitingCount--;
      if (waiting) this.waitingCount++;
      this.cars.set(id, { at, waiting });
    };
    if (type === 'VEHICLE_QUEUED') mark(data.entryId, true);
    if (type === 'VEHICLE_REMOVED') mark(data.id, false);
    if (type === 'VEHICLES_REMOVED_FROM_QUEUE') for (const id of data.ids ?? []) mark(id, false);
    // Into a batch (the batch's announcement), to overflow, or completed: no longer waiting for a batch.
    if (type === 'QUEUE_STATUS_UPDATED' && (data.batchId !== undefined || data.status !== 'waiting')) {
      mark(data.id, false);
    }
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
    options: { kind: 'staff' | 'anonymous'; cookie?: string; latency?: Samples; onEvent?: () => void },
  ): Promise<Screen> {
    const url = `${baseUrl.replace(/^http/, 'ws')}/ws`;
    if (new URL(url).hostname !== '127.0.0.1') throw new Error('The benchmark only targets 127.0.0.1');
    const screen = new Screen(options.kind, url, options.cookie, options.latency, options.onEvent);
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
