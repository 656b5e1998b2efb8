/**
 * The screens' connections: WebSocket clients on `/ws`, signed-in staff (with
 * the session cookie) or anonymous (a bus map). Each counts what it receives;
 * staff connections add every event's delivery latency (arrival minus the
 * server's `sentAt` stamp, same machine so the clocks agree) to a shared
 * sample, and hand every message to the web screen they feed (`web-screen.ts`).
 * Like the web app, every connection pings every 30 s. A teacher's connection
 * subscribes to its classrooms as the web's teacher screen does
 * (`classroom-subscription.ts`, ADR 0018); a release by way home concerns its
 * students' classrooms (ADR 0022). Every message is checked against
 * the screen's own school (`belongs`): one naming another school's records
 * counts as crossed.
 */
import { CAR_LINE_EVENT_TYPES } from '@curbside/api';
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

/** Answers to the connection's own requests (a subscription): not events. */
const CONTROL = new Set(['subscribed', 'error']);

/** The car-line events that concern the classrooms of their students (the server's `concernOf`); the rest concern every staff screen. */
const BY_CLASSROOM = new Set([
  'VEHICLE_QUEUED',
  'VEHICLE_REMOVED',
  'VEHICLE_RESTORED',
  'QUEUE_STATUS_UPDATED',
  'VEHICLES_REMOVED_FROM_QUEUE',
  'STUDENT_STATUS_UPDATE',
  'STUDENTS_RELEASED',
]);
const CAR_LINE: ReadonlySet<string> = new Set(CAR_LINE_EVENT_TYPES);

/** Which staff screens an event is for: every one (`all`), or the teachers of these classrooms (the line screens get it anyway). */
export type Concern = 'all' | number[];

/**
 * The classrooms a staff event concerns, from its own records, as the server
 * routes it (`live-events.ts` `concernOf`); `classroomOf` answers a student's
 * classroom (a release names only the student).
 */
export const concernOf = (
  message: { type?: string; sessionId?: number; data?: unknown },
  classroomOf: (studentId: number) => number | undefined,
): Concern => {
  const type = message.type ?? '';
  if (!CAR_LINE.has(type) || message.sessionId === undefined || !BY_CLASSROOM.has(type)) return 'all';
  const data = (message.data ?? {}) as {
    entry?: { students?: Array<{ classroomId: number | null }> } | null;
    entries?: Array<{ students?: Array<{ classroomId: number | null }> }>;
    studentId?: number;
    students?: Array<{ classroomId: number | null }>;
  };
  const students = [
    ...(type === 'STUDENTS_RELEASED' ? (data.students ?? []) : []),
    ...(data.entry?.students ?? []),
    ...(data.entries ?? []).flatMap((entry) => entry.students ?? []),
  ];
  const ids =
    type === 'STUDENT_STATUS_UPDATE'
      ? [typeof data.studentId === 'number' ? classroomOf(data.studentId) : undefined]
      : students.map((student) => student.classroomId);
  return [...new Set(ids.filter((id): id is number => typeof id === 'number'))];
};

/** Whether a screen following `classroomIds` gets an event of this concern. */
export const concerns = (concern: Concern, classroomIds: readonly number[]) =>
  concern === 'all' || concern.some((id) => classroomIds.includes(id));

export class Screen {
  readonly socket: WebSocket;
  /** Events (anything but pong and the answers to a subscription) received. */
  events = 0;
  pongs = 0;
  pingsSent = 0;
  /** Messages sent other than pings (a subscription). */
  requestsSent = 0;
  queueEvents = 0;
  unstamped = 0;
  /** Every message received (events, pongs, answers): each one a post of the server. */
  received = 0;
  readonly byType = new Map<string, number>();
  /** The classrooms this connection follows (a teacher's, once subscribed); null: every car-line event. */
  classroomIds: readonly number[] | null = null;
  /** Events that concern none of its classrooms (a subscribed connection should get none). */
  outside = 0;
  /** Messages naming another school's records (`belongs` answered false). */
  crossed = 0;
  /** Checks a message against the screen's own school (set by the setup). */
  belongs: ((message: unknown) => boolean) | undefined;
  /** The concern of every event received, kept on one whole-line screen: what each teacher should have got. */
  concernLog: Concern[] | undefined;
  /** A student's classroom (the school's seed), for the concern of a release. */
  classroomOf: (studentId: number) => number | undefined = () => undefined;
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
      let message: { type?: string; sentAt?: number; sessionId?: number; data?: unknown };
      try {
        message = JSON.parse(raw.toString());
      } catch {
        message = { type: 'UNPARSEABLE' };
      }
      const type = message.type ?? 'UNKNOWN';
      this.received++;
      if (this.belongs && !this.belongs(message)) this.crossed++;
      if (type === 'pong') {
        this.pongs++;
        return;
      }
      if (CONTROL.has(type)) {
        this.resolveWaiters(type);
        return;
      }
      this.events++;
      if (this.kind === 'staff' && (this.concernLog || this.classroomIds)) {
        const concern = concernOf(message, this.classroomOf);
        this.concernLog?.push(concern);
        if (this.classroomIds && !concerns(concern, this.classroomIds)) this.outside++;
      }
      this.byType.set(type, (this.byType.get(type) ?? 0) + 1);
      if (QUEUE_EVENTS.has(type)) this.queueEvents++;
      if (typeof message.sentAt === 'number') latency?.push(arrived - message.sentAt, arrived);
      else this.unstamped++;
      this.onMessage?.(message);
      this.resolveWaiters(type);
    });
  }

  private resolveWaiters(type: string) {
    const waiting = this.waiters.filter((waiter) => waiter.type === type);
    this.waiters = this.waiters.filter((waiter) => waiter.type !== type);
    for (const waiter of waiting) waiter.done();
  }

  /**
   * Narrows the connection to these classrooms, as the web's teacher screen
   * does once its connection is open, and waits for the server's `subscribed`
   * answer (an error answer, or none within 10 s, throws).
   */
  async subscribe(classroomIds: readonly number[]): Promise<void> {
    const answered = Promise.race([
      this.next('subscribed', 10_000).then((ok) => (ok ? 'subscribed' : 'no answer')),
      this.next('error', 10_000).then((ok) => (ok ? 'error' : 'no answer')),
    ]);
    this.socket.send(JSON.stringify({ action: 'subscribe', classroomIds, order: 1 }));
    this.requestsSent++;
    const outcome = await answered;
    if (outcome !== 'subscribed')
      throw new Error(`The subscription to classrooms ${classroomIds} got ${outcome}`);
    this.classroomIds = [...classroomIds];
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
