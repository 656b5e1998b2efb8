/**
 * The buses of the rush: drivers sharing a position every second over the
 * driver link, map viewers on the map link, and the school admin's map
 * screens (staff connections opened with `?buses=1`). Each viewer counts the
 * bus messages it receives per second of the server's clock (the second a
 * coalesced message was claimed for, else its `sentAt`), the
 * delivery of every new position (arrival minus the moment the driver sent
 * it, same machine so the clocks agree), and any field that could name a
 * child. The relay can be switched to the naive one (every position to every
 * viewer) for a window of the same run, to measure what coalescing saves.
 */

import { busIdOf } from '@curbside/domain';
import type { MeterSnapshot } from '@curbside/store';
import { busLinks, type Db, vehicles } from '@curbside/store';
import WebSocket from 'ws';
import { newVehicle } from '../support/vehicles';
import { AWS_PRICES } from './aws-prices';
import { Samples, sleep } from './stats';
import type { BusWindowFigures } from './types';

const PING_EVERY_MS = 30_000;

/** The fleet a scale brings: 20 buses and 100 map viewers at scale 1, plus two admin map screens. */
export const busPlanFor = (scale: number) => ({
  buses: Math.max(2, Math.round(20 * scale)),
  viewers: Math.max(5, Math.round(100 * scale)),
  adminScreens: 2,
});

/** Registers the school's buses (`numbers`, ids `B{number}`) and answers its driver and map tokens. */
export const seedBuses = async (db: Db, schoolId: number, numbers: readonly string[]) => {
  for (const number of numbers) {
    await vehicles.create(db, newVehicle(schoolId, number, 'bus', { parentName: `Route ${number}` }));
  }
  const links = await busLinks.ofSchool(db, schoolId);
  return { driverToken: links.driverToken, mapToken: links.mapToken };
};

const open = (url: string, headers: Record<string, string> = {}) =>
  new Promise<WebSocket>((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });

/** Keys that would name or reach a child or a family: never on a bus message. */
const PRIVATE_KEY = /student|parent|phone|firstName|lastName|guardian/i;
const keysOf = (value: unknown): string[] =>
  typeof value !== 'object' || value === null
    ? []
    : Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)]);

/** What a connection of the fleet sent and received (every message: posts of the server, pongs included). */
export interface Traffic {
  sent: number;
  received: number;
  /** Messages naming another school's records. */
  crossed: number;
}

/** One map viewer: what it received, per second of the server's clock. */
class Viewer implements Traffic {
  readonly perSecond = new Map<number, number>();
  messages = 0;
  /** Bus messages over the whole run (counting or not). */
  busMessages = 0;
  leaks = 0;
  sent = 0;
  received = 0;
  crossed = 0;
  private readonly latest = new Map<string, number>();
  private pinger: NodeJS.Timeout;

  constructor(
    readonly socket: WebSocket,
    delivery: Samples,
    counting: () => boolean,
    belongs: (message: unknown) => boolean,
  ) {
    socket.on('message', (raw) => {
      const arrived = Date.now();
      const message = JSON.parse(raw.toString()) as {
        type: string;
        sentAt?: number;
        data?: { second?: number; buses?: Array<{ busId: string; location: { timestamp: number } }> };
      };
      this.received++;
      if (!belongs(message)) this.crossed++;
      if (!message.type.startsWith('BUS_')) return;
      this.busMessages++;
      if (keysOf(message).some((key) => PRIVATE_KEY.test(key))) this.leaks++;
      if (!counting()) return;
      this.messages++;
      // Its claimed second: a busy machine can stamp `sentAt` in the next one, beside that second's own message.
      const second = message.data?.second ?? Math.floor((message.sentAt ?? arrived) / 1000);
      this.perSecond.set(second, (this.perSecond.get(second) ?? 0) + 1);
      // A coalesced message may repeat a position the last one carried: each position counts once.
      for (const bus of message.data?.buses ?? []) {
        if ((this.latest.get(bus.busId) ?? 0) >= bus.location.timestamp) continue;
        this.latest.set(bus.busId, bus.location.timestamp);
        delivery.push(arrived - bus.location.timestamp, arrived);
      }
    });
    this.pinger = setInterval(() => {
      if (socket.readyState !== WebSocket.OPEN) return;
      socket.send(JSON.stringify({ type: 'ping' }));
      this.sent++;
    }, PING_EVERY_MS);
  }

  close() {
    clearInterval(this.pinger);
    this.socket.close();
  }
}

/** One driver: a position of its bus every second, moving along a line, and a heartbeat every 15 s. */
class Driver implements Traffic {
  sent = 0;
  received = 0;
  crossed = 0;
  private timer: NodeJS.Timeout | undefined;
  private heart: NodeJS.Timeout | undefined;
  private step = 0;

  constructor(
    readonly socket: WebSocket,
    readonly busId: string,
    private readonly index: number,
    belongs: (message: unknown) => boolean,
  ) {
    socket.on('message', (raw) => {
      this.received++;
      let message: unknown;
      try {
        message = JSON.parse(raw.toString());
      } catch {
        message = null;
      }
      if (!belongs(message)) this.crossed++;
    });
  }

  start(periodMs: number) {
    const send = () => {
      if (this.socket.readyState !== WebSocket.OPEN) return;
      this.step++;
      const location = {
        latitude: 29.9811 + this.index / 1000 + this.step / 100_000,
        longitude: -81.4457 + this.step / 100_000,
        speed: 8,
        accuracy: 5,
        heading: 45,
        timestamp: Date.now(),
      };
      this.socket.send(
        JSON.stringify({ type: 'BUS_LOCATION_UPDATE', data: { busId: this.busId, location } }),
      );
      this.sent++;
    };
    // Drivers do not send in step: each starts at its own moment of the second.
    this.timer = setTimeout(
      () => {
        send();
        this.timer = setInterval(send, periodMs);
      },
      (this.index * 997) % periodMs,
    );
    this.heart = setInterval(() => {
      if (this.socket.readyState !== WebSocket.OPEN) return;
      this.socket.send(JSON.stringify({ type: 'heartbeat', busId: this.busId }));
      this.sent++;
    }, 15_000);
  }

  stop() {
    clearTimeout(this.timer);
    clearInterval(this.timer);
    clearInterval(this.heart);
  }
}

const sumTraffic = (of: readonly Traffic[]): Traffic & { connections: number } => ({
  connections: of.length,
  sent: of.reduce((sum, t) => sum + t.sent, 0),
  received: of.reduce((sum, t) => sum + t.received, 0),
  crossed: of.reduce((sum, t) => sum + t.crossed, 0),
});

/** The fleet running against the server; `window` measures a stretch of it, `stop` closes everything. */
export const startBusFleet = async (options: {
  url: string;
  driverToken: string;
  mapToken: string;
  /** A staff session cookie for the admin map screens. */
  staffCookie: string;
  /** The buses' numbers (ids `B{number}`). */
  busNumbers: readonly string[];
  viewers: number;
  adminScreens: number;
  /** Checks a message against the school's own records (a crossed one is counted). */
  belongs?: (message: unknown) => boolean;
}) => {
  const belongs = options.belongs ?? (() => true);
  const ws = `${options.url.replace(/^http/, 'ws')}/ws`;
  const delivery = new Samples();
  let counting = false;
  const isCounting = () => counting;
  const viewers: Viewer[] = [];
  for (let i = 0; i < options.viewers; i++) {
    viewers.push(new Viewer(await open(`${ws}?t=${options.mapToken}`), delivery, isCounting, belongs));
  }
  for (let i = 0; i < options.adminScreens; i++) {
    viewers.push(
      new Viewer(await open(`${ws}?buses=1`, { cookie: options.staffCookie }), delivery, isCounting, belongs),
    );
  }
  const drivers: Driver[] = [];
  for (const [i, number] of options.busNumbers.entries()) {
    drivers.push(new Driver(await open(`${ws}?t=${options.driverToken}`), busIdOf(number), i, belongs));
  }
  for (const driver of drivers) driver.start(1000);

  /** Counts what every viewer receives while `during` runs; the meter's `ws/default` share is the drivers'. */
  const window = async (
    relay: 'coalesced' | 'naive',
    meterNow: () => Promise<MeterSnapshot>,
    during: () => Promise<void>,
  ): Promise<BusWindowFigures> => {
    for (const viewer of viewers) {
      viewer.perSecond.clear();
      viewer.messages = 0;
    }
    const sentBefore = drivers.reduce((sum, driver) => sum + driver.sent, 0);
    const before = await meterNow();
    const started = performance.now();
    counting = true;
    await during();
    counting = false;
    const seconds = (performance.now() - started) / 1000;
    const after = await meterNow();
    const driverMessages = drivers.reduce((sum, driver) => sum + driver.sent, 0) - sentBefore;
    const counters = (snapshot: MeterSnapshot) => snapshot['ws/default'] ?? {};
    const delta = (name: string) => (counters(after)[name] ?? 0) - (counters(before)[name] ?? 0);
    const invocations = Math.max(1, delta('lambda.invocations'));
    // Pings of every screen also run `$default` (no reads or writes): the drivers' share of its time.
    const share = Math.min(1, driverMessages / invocations);
    const counts = viewers.flatMap((viewer) => [...viewer.perSecond.values()]);
    const messagesOut = viewers.reduce((sum, viewer) => sum + viewer.messages, 0);
    return {
      relay,
      seconds,
      driverMessages,
      perViewerPerSecond: {
        mean: messagesOut / viewers.length / Math.max(1, seconds),
        max: counts.length > 0 ? Math.max(...counts) : 0,
      },
      messagesOut,
      usagePerSecond: {
        lambdaGbSeconds: ((delta('lambda.billedMs') * share) / 1000 / seconds) * AWS_PRICES.lambda.memoryGb,
        readUnits: delta('ddb.readUnits') / seconds,
        writeUnits: delta('ddb.writeUnits') / seconds,
      },
    };
  };

  const mapViewers = viewers.slice(0, options.viewers);
  const adminMaps = viewers.slice(options.viewers);
  return {
    delivery,
    window,
    /** What the map-link viewers, the admin's map screens and the drivers sent and received so far. */
    /** Bus messages every map screen received so far. */
    busMessages: () => viewers.reduce((sum, viewer) => sum + viewer.busMessages, 0),
    traffic: () => ({
      viewers: sumTraffic(mapViewers),
      adminMaps: sumTraffic(adminMaps),
      drivers: sumTraffic(drivers),
    }),
    leaks: () => viewers.reduce((sum, viewer) => sum + viewer.leaks, 0),
    /** Waits for every driver to have sent at least once (they start at their own moment of the second). */
    warm: async () => {
      while (drivers.some((driver) => driver.sent === 0)) await sleep(100);
    },
    stop: () => {
      for (const driver of drivers) driver.stop();
      for (const driver of drivers) driver.socket.close();
      for (const viewer of viewers) viewer.close();
    },
  };
};
export type BusFleet = Awaited<ReturnType<typeof startBusFleet>>;
