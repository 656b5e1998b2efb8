/**
 * A staff screen as the web client runs it, without a browser: the web's own
 * QueryClient settings, query keys, live-event cache patches and cache sync
 * (the web package's `@curbside/web/cache` entry), with one query observer
 * per list the screen shows, the specification's polling intervals, and the
 * same reads over HTTP (through a `BenchClient`, so every read is recorded
 * and metered).
 *
 * - `patch` mode is today's web client: events patch the cached lists; a list
 *   is read again only on a sequence gap, or on its polling interval.
 * - `refetch-all` mode is the client before it (the baseline): every queue
 *   event invalidates the lists it concerns, and every observed one is read
 *   again, on every screen.
 */
import type { LiveEvent, LiveEventType } from '@curbside/api';
import type { Batch, QueueEntry, TeacherStudent } from '@curbside/domain';
import {
  ALERTS_POLL_MS,
  activeAlertsPatch,
  alertKeys,
  batchKeys,
  batchPatches,
  type CachePatch,
  completedBatchesPatch,
  createQueryClient,
  isLiveEvent,
  LiveSync,
  QUEUE_STATUS_POLL_MS,
  queueKeys,
  queuePatches,
  teacherKeys,
  teacherPatches,
} from '@curbside/web/cache';
import { hashKey, type QueryKey, QueryObserver } from '@tanstack/query-core';
import type { BenchClient } from './http';
import type { ReadReason, ScreenKind, ScreenMode } from './types';

/** The cache patches each screen registers, as its page's hooks do. */
const PATCHES: Record<ScreenKind, readonly CachePatch[]> = {
  front: [...queuePatches, activeAlertsPatch],
  back: [...batchPatches, ...queuePatches, activeAlertsPatch],
  teacher: [...teacherPatches, ...queuePatches, completedBatchesPatch, activeAlertsPatch],
};

/**
 * The lists today's client read again on each event before this one (the
 * baseline): the queue lists on every screen; batches on the back screen;
 * the student lists and completed batches on the teacher screen.
 */
const QUEUE_EVENTS: readonly LiveEventType[] = [
  'VEHICLE_QUEUED',
  'VEHICLE_REMOVED',
  'QUEUE_STATUS_UPDATED',
  'VEHICLES_REMOVED_FROM_QUEUE',
];
const REFETCHED: Record<ScreenKind, Array<{ types: readonly LiveEventType[]; prefix: QueryKey }>> = {
  front: [{ types: QUEUE_EVENTS, prefix: queueKeys.all }],
  back: [
    { types: QUEUE_EVENTS, prefix: queueKeys.all },
    {
      types: ['QUEUE_STATUS_UPDATED', 'VEHICLE_REMOVED', 'VEHICLES_REMOVED_FROM_QUEUE'],
      prefix: batchKeys.all,
    },
    { types: ['VEHICLES_REMOVED_FROM_QUEUE'], prefix: batchKeys.done },
  ],
  teacher: [
    { types: [...QUEUE_EVENTS, 'STUDENT_STATUS_UPDATE'], prefix: teacherKeys.all },
    { types: QUEUE_EVENTS, prefix: queueKeys.all },
    { types: ['VEHICLES_REMOVED_FROM_QUEUE'], prefix: batchKeys.done },
  ],
};

const same = (key: QueryKey, expected: QueryKey) =>
  key.length === expected.length && expected.every((part, i) => key[i] === part);

/** The route and path the web's query function calls for a query key. */
export const requestOf = (queryKey: QueryKey, sessionId: number): { route: string; path: string } => {
  if (same(queryKey, queueKeys.active(sessionId)))
    return { route: 'listQueue', path: `/api/queue?sessionId=${sessionId}` };
  if (same(queryKey, queueKeys.completed(sessionId)))
    return { route: 'listQueue', path: `/api/queue?sessionId=${sessionId}&status=completed` };
  if (same(queryKey, batchKeys.active(sessionId)))
    return { route: 'activeBatches', path: `/api/batches/active?sessionId=${sessionId}` };
  if (same(queryKey, batchKeys.completed(sessionId)))
    return { route: 'listBatches', path: `/api/batches?sessionId=${sessionId}&status=completed` };
  if (same(queryKey, alertKeys.active(sessionId)))
    return { route: 'listAlerts', path: `/api/alerts?sessionId=${sessionId}` };
  const [root, , kind, scope] = queryKey;
  if (root === teacherKeys.all[0] && typeof scope === 'string') {
    const classrooms = scope === 'school' ? '' : `&classroomIds=${scope}`;
    return kind === 'ready'
      ? { route: 'readyStudents', path: `/api/teacher/students/ready?sessionId=${sessionId}${classrooms}` }
      : { route: 'teacherStudents', path: `/api/teacher/students?sessionId=${sessionId}${classrooms}` };
  }
  const batchId = queryKey.at(-1);
  if ((root === batchKeys.all[0] || root === batchKeys.history[0]) && typeof batchId === 'number')
    return { route: 'batchVehicles', path: `/api/batches/${batchId}/vehicles` };
  throw new Error(`No read for query ${JSON.stringify(queryKey)}`);
};

interface Mounted {
  observer: QueryObserver<unknown, Error, unknown, unknown, QueryKey>;
  stop: () => void;
}

export class WebScreen {
  readonly client = createQueryClient();
  readonly sync: LiveSync;
  /** Reads per route and reason. */
  readonly reads = new Map<string, Record<ReadReason, number>>();
  /** Sequence gaps seen (each makes the screen read its lists once). */
  gaps = 0;
  /** Reads that failed (network or status), which a person would see as an error. */
  failedReads = 0;
  private readonly mounted = new Map<string, Mounted>();
  private readonly reasons = new Map<string, ReadReason>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly stops: Array<() => void> = [];
  private loading = true;
  private mountingCards = false;
  private stopped = false;

  constructor(
    readonly kind: ScreenKind,
    readonly sessionId: number,
    private readonly http: BenchClient,
    readonly mode: ScreenMode,
    private readonly classroomIds: readonly number[] = [],
  ) {
    // Structural sharing spares a browser renders; forty screens in one process render nothing.
    this.client.setDefaultOptions({
      ...this.client.getDefaultOptions(),
      queries: { ...this.client.getDefaultOptions().queries, structuralSharing: false },
    });
    this.sync = new LiveSync(this.client, {
      onGap: () => {
        this.gaps++;
        for (const hash of this.mounted.keys()) this.reasons.set(hash, 'gap');
      },
    });
    this.stops.push(this.sync.register(mode === 'patch' ? PATCHES[kind] : [activeAlertsPatch]));
  }

  /** Opens the screen: every list it shows is read once; the polls start. */
  async open(): Promise<void> {
    const { sessionId } = this;
    this.mount(alertKeys.active(sessionId));
    if (this.kind === 'front') {
      this.mount(queueKeys.active(sessionId));
      this.mount(queueKeys.completed(sessionId));
    }
    if (this.kind === 'back') {
      this.mount(queueKeys.active(sessionId));
      this.mount(batchKeys.active(sessionId));
      this.mount(batchKeys.completed(sessionId));
      // Each batch card reads its vehicles (a loading batch with vehicles; a completed batch).
      const lists = [hashKey(batchKeys.active(sessionId)), hashKey(batchKeys.completed(sessionId))];
      this.stops.push(
        this.client.getQueryCache().subscribe((event) => {
          // As React does, the cards mount after the event has been applied in full (a render later).
          if (event.type === 'updated' && lists.includes(event.query.queryHash))
            setTimeout(() => this.mountBatchCards(), 0);
        }),
      );
    }
    if (this.kind === 'teacher') {
      this.mount(teacherKeys.students(sessionId, this.classroomIds));
      this.mount(teacherKeys.ready(sessionId, this.classroomIds));
      this.mount(queueKeys.active(sessionId));
      this.mount(batchKeys.completed(sessionId));
      this.poll(queueKeys.active(sessionId), QUEUE_STATUS_POLL_MS);
    }
    this.poll(alertKeys.active(sessionId), ALERTS_POLL_MS);
    // Mounting read each list once; the screen is open when they have all answered.
    const deadline = performance.now() + 30_000;
    while ([...this.mounted.values()].some(({ observer }) => observer.getCurrentResult().isPending)) {
      if (performance.now() > deadline) throw new Error(`The ${this.kind} screen did not load within 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    this.loading = false;
  }

  /** A message from the screen's live connection. */
  receive(message: unknown): void {
    if (!isLiveEvent(message)) return;
    this.sync.receive(message);
    if (this.mode === 'refetch-all') this.refetchAll(message);
  }

  /** The entries this screen shows in the queue. */
  queue(): QueueEntry[] {
    return this.client.getQueryData<QueueEntry[]>(queueKeys.active(this.sessionId)) ?? [];
  }

  /** The cars this screen shows waiting for a batch. */
  waitingCars(): number {
    return this.queue().filter(
      (entry) => entry.vehicleType === 'car' && entry.status === 'waiting' && entry.batchId === null,
    ).length;
  }

  /** The vehicles a batch card shows (undefined until its list is known). */
  batchVehicles(batchId: number): QueueEntry[] | undefined {
    return this.client.getQueryData<QueueEntry[]>(batchKeys.vehicles(batchId));
  }

  /** Every student of a teacher screen's classrooms, with their way home today (issue 52). */
  students(): TeacherStudent[] {
    return (
      this.client.getQueryData<TeacherStudent[]>(teacherKeys.students(this.sessionId, this.classroomIds)) ??
      []
    );
  }

  /** The ready students a teacher screen shows. */
  readyStudents(): TeacherStudent[] {
    return (
      this.client.getQueryData<TeacherStudent[]>(teacherKeys.ready(this.sessionId, this.classroomIds)) ?? []
    );
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) {
      clearTimeout(timer);
      clearInterval(timer);
    }
    for (const stop of this.stops) stop();
    for (const { stop } of this.mounted.values()) stop();
    this.mounted.clear();
    this.sync.stop();
    this.client.clear();
  }

  private count(route: string, reason: ReadReason) {
    const of = this.reads.get(route) ?? { load: 0, mount: 0, poll: 0, gap: 0, event: 0 };
    of[reason]++;
    this.reads.set(route, of);
  }

  /** Observes a query as a mounted component does; its reads go over HTTP and are counted by reason. */
  private mount(queryKey: QueryKey) {
    const hash = hashKey(queryKey);
    if (this.mounted.has(hash)) return;
    const { route, path } = requestOf(queryKey, this.sessionId);
    const observer = new QueryObserver<unknown, Error, unknown, unknown, QueryKey>(this.client, {
      queryKey,
      queryFn: async () => {
        const reason = this.reasons.get(hash) ?? (this.loading ? 'load' : 'mount');
        this.reasons.delete(hash);
        this.count(route, reason);
        const answer = await this.http.call(route, 'GET', path);
        if (answer.status !== 200) {
          this.failedReads++;
          throw new Error(`${route}: ${answer.status}`);
        }
        return answer.body;
      },
    });
    const mounted: Mounted = { observer, stop: () => {} };
    this.mounted.set(hash, mounted);
    mounted.stop = observer.subscribe(() => {});
  }

  private unmount(hash: string) {
    this.mounted.get(hash)?.stop();
    this.mounted.delete(hash);
  }

  /**
   * Reads a list again every `ms`, as its query's `refetchInterval` does; the
   * first time at a random point of the interval, as screens open at different times.
   */
  private poll(queryKey: QueryKey, ms: number) {
    const hash = hashKey(queryKey);
    const read = () => {
      this.reasons.set(hash, 'poll');
      void this.client.refetchQueries({ queryKey, exact: true }).catch(() => {});
    };
    const first = setTimeout(() => {
      read();
      this.timers.push(setInterval(read, ms));
    }, Math.random() * ms);
    this.timers.push(first);
  }

  /** The back screen's batch cards: one vehicles query per loading batch with vehicles and per completed batch. */
  private mountBatchCards() {
    if (this.mountingCards || this.stopped) return;
    this.mountingCards = true;
    try {
      this.syncBatchCards();
    } finally {
      this.mountingCards = false;
    }
  }

  private syncBatchCards() {
    const loading = this.client.getQueryData<Batch[]>(batchKeys.active(this.sessionId)) ?? [];
    const done = this.client.getQueryData<Batch[]>(batchKeys.completed(this.sessionId)) ?? [];
    const wanted = new Map<string, QueryKey>();
    for (const batch of loading) {
      if (batch.currentCount > 0)
        wanted.set(hashKey(batchKeys.vehicles(batch.id)), batchKeys.vehicles(batch.id));
    }
    for (const batch of done)
      wanted.set(hashKey(batchKeys.historyOf(batch.id)), batchKeys.historyOf(batch.id));
    for (const hash of [...this.mounted.keys()]) {
      const key = this.mounted.get(hash)?.observer.getCurrentQuery().queryKey ?? [];
      const card = key[0] === batchKeys.history[0] || (key[0] === batchKeys.all[0] && key[1] === 'vehicles');
      if (card && !wanted.has(hash)) this.unmount(hash);
    }
    for (const key of wanted.values()) this.mount(key);
  }

  /** The baseline: every list an event concerns is read again. */
  private refetchAll(event: LiveEvent) {
    for (const { types, prefix } of REFETCHED[this.kind]) {
      if (!types.includes(event.type)) continue;
      for (const [hash, { observer }] of this.mounted) {
        const key = observer.getCurrentQuery().queryKey;
        if (prefix.every((part, i) => key[i] === part)) this.reasons.set(hash, 'event');
      }
      void this.client.invalidateQueries({ queryKey: prefix });
    }
  }
}
