/**
 * The benchmark's data: what each phase measures and answers (plain data, no
 * connection or process in it), the report `assembleReport` builds from
 * them, and the budgets' verdicts. This module imports none of the bench's
 * own modules, so every one of them can import from it without a circle.
 */

import type { BundleImport } from '@curbside/functions/build/bundle-imports';
import type { MeterCounters, MeterSnapshot } from '@curbside/store';

export interface BenchOptions {
  /** Multiplies the load: 1 by default, 0.1 a quick smoke run, 5 a district-size rush. */
  scale: number;
  /** Length of the arrival window; default 180 s × scale, between 15 and 300 s (a 30-minute dismissal compressed about 10×). */
  durationSec?: number;
  /**
   * How the staff screens follow the rush: `patch` (the web client: events
   * patch their lists; the default, followed by a shorter baseline rush) or
   * `refetch-all` (the baseline alone: every list read again per event).
   */
  screens?: ScreenMode;
  /** Reuse a running DynamoDB Local (the test suite's) instead of starting one in memory. */
  endpoint?: string;
  tableName?: string;
  /** The server's LOG_LEVEL: silent by default. */
  logLevel?: 'silent' | 'error' | 'info';
  /** Write a V8 CPU profile of the server process into this directory. */
  cpuProfileDir?: string;
  /** How many times each floor runs (default 2; the ratios use the lower run). */
  floorRuns?: number;
  /** Worker threads per function in the server (default 0: every handler on one thread). */
  workers?: number;
  /**
   * Passwords hash at the tests' cost (`useTestHashCost`) in the server as in this process: the
   * smoke test, whose test file's hashes are already made at that cost. `npm run bench` hashes
   * at the real cost.
   */
  testHashCost?: boolean;
  /**
   * The smoke test's run: figures for correctness, not for latency (no budget is checked). The
   * warm-up stops after its rounds (no 20 s minimum) and the naive bus relay runs 3 s, not 10.
   */
  quick?: boolean;
  /** Progress lines (stderr in the CLI). */
  log?: (line: string) => void;
}

// ── Measures ─────────────────────────────────────────────────────────────────

export interface Summary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

export interface RouteFigures {
  calls: number;
  latencyMs: Summary;
  statuses: Record<string, number>;
  billedRequests: number;
  bytes: number;
}

export interface SchoolPlan {
  students: number;
  cars: number;
  /** Extra registered cars kept out of the rush, queued only by the read-unit probes. */
  probeCars: number;
  classrooms: number;
  front: number;
  back: number;
  teachers: number;
  /** Parents following one child each on the dashboard (200 at scale 1). */
  parents: number;
}

export type ScreenKind = 'front' | 'back' | 'teacher';

export type ScreenMode = 'patch' | 'refetch-all';

/** Every kind of live connection of a dismissal, as the report counts their messages. */
export const TRAFFIC_KINDS = [
  'front',
  'back',
  'teacher',
  'admin map',
  'parent',
  'map viewer',
  'driver',
  'anonymous',
] as const;
export type TrafficKind = (typeof TRAFFIC_KINDS)[number];

/** One kind's connections and their messages: in (pings, positions, heartbeats, subscriptions) and out (every post of the server: events, pongs, answers). */
export interface KindTraffic {
  connections: number;
  in: number;
  out: number;
}

/** One kind's messages per car of the rush. */
export interface KindMessages extends KindTraffic {
  kind: TrafficKind;
  outPerCar: number;
  inPerCar: number;
}

/** Why a screen read a list: its first load, a new card, its polling interval, a missed event, or an event (baseline). */
export const READ_REASONS = ['load', 'mount', 'poll', 'gap', 'event'] as const;
export type ReadReason = (typeof READ_REASONS)[number];

export interface RushCounts {
  queued: number;
  walkUpCompleted: number;
  batchesCreated: number;
  batchesCompleted: number;
  /** Cars added to a batch (add-to-batch answers 200). */
  batched: number;
  /** Cars completed with their batch. */
  completedInBatches: number;
  overflowed: number;
  dismissed: number;
  released: number;
  /**
   * Completions the server asked about (a child no teacher released yet, issue 50) that the
   * staff confirmed, as the screens' "Complete anyway?" does.
   */
  completedAnyway: number;
  /** 409 answers (two tablets raced for the same car, a full batch, nothing waiting) and 404s of cars already gone. */
  conflicts: number;
  /** Answers other than the expected 2xx and 409. */
  unexpected: number;
}

export interface MemoryFigures {
  /** RSS after start (handlers loaded), before any load. */
  baselineRssMb: number;
  peakRssMb: number;
  peakHeapUsedMb: number;
  samples: number;
}

export interface CpuSample {
  at: number;
  server: number;
  generator: number;
  dynamo: number | undefined;
  machine: number | undefined;
}

export interface CpuFigures {
  seconds: number;
  cores: number;
  /** CPU seconds used, and as a share of one core over the window. */
  server: { seconds: number; cores: number };
  dynamoLocal: { seconds: number; cores: number } | null;
  generator: { seconds: number; cores: number };
  /** Everything else on the machine (other users' work), when /proc/stat is readable. */
  others: { seconds: number; cores: number } | null;
  machineBusy: { seconds: number; cores: number } | null;
}

export interface PutFloor {
  clients: number;
  perSecond: number;
  puts: number;
  errors: number;
  itemBytes: number;
  latencyMs: Summary;
}

export interface BroadcastFloor {
  clients: number;
  messages: number;
  perSecond: number;
  payloadBytes: number;
  expected: number;
  received: number;
  latencyMs: Summary;
}

export interface QueueReadProbe {
  /** Active entries the probe queued (the same cars both times). */
  activeEntries: number;
  completedPickups: number;
  calls: number;
  readUnitsPerCall: number;
}

export interface AddToBatchProbe {
  /** Cars waiting for a batch when add-to-batch was pressed. */
  waiting: number;
  calls: number;
  readUnitsPerCall: number;
  /** DynamoDB calls per add-to-batch, by operation. */
  operations: Record<string, number>;
}

/** What one handler label consumed (meter counters of a window). */
export interface LabelFigures {
  invocations: number;
  billedMs: number;
  readUnits: number;
  writeUnits: number;
  /** Outbound live messages in 32 KB increments. */
  billedMessages: number;
}

export interface Usage {
  lambdaRequests: number;
  lambdaGbSeconds: number;
  httpApiRequests: number;
  webSocketMessages: number;
  connectionMinutes: number;
  readUnits: number;
  writeUnits: number;
}

export interface Priced {
  usage: Usage;
  dollars: {
    lambdaRequests: number;
    lambdaDuration: number;
    httpApi: number;
    webSocketMessages: number;
    connectionMinutes: number;
    dynamoDbReads: number;
    dynamoDbWrites: number;
    total: number;
  };
}

export interface CostModel {
  asRun: Priced;
  dismissal: Priced;
  /** The part of a dismissal that is the staff screens' reads (loads, polls, reads after a missed event). */
  dismissalScreenReads: Priced;
  dropoff: Priced;
  month: Priced;
  perCar: { dismissal: number; dropoff: number };
  /**
   * What the specification's own intervals cost over a dismissal, whatever
   * the implementation: every socket's ping and pong, the drivers' positions
   * and heartbeats, one bus message per map screen per second, the polls,
   * the connection minutes. No car, no DynamoDB, no Lambda duration.
   */
  floor: Priced;
  assumptions: string[];
}

export interface BusWindowFigures {
  relay: 'coalesced' | 'naive';
  seconds: number;
  /** Messages the drivers sent (positions and heartbeats): one `$default` invocation each. */
  driverMessages: number;
  /** Bus messages per viewer per second: the mean, and the most any viewer got in one second. */
  perViewerPerSecond: { mean: number; max: number };
  /** Bus messages received by every viewer and admin map screen. */
  messagesOut: number;
  /** Per second of the window: usage the meter saw under `ws/default` (the drivers' share of it). */
  usagePerSecond: { lambdaGbSeconds: number; readUnits: number; writeUnits: number };
}

/** The bus fleet of the run, as measured: the rush (coalesced relay) and the naive relay after it. */
export interface BusRun {
  buses: number;
  viewers: number;
  adminScreens: number;
  /** During the rush (coalesced relay): new positions delivered to the viewers. */
  deliveryMs: Summary;
  rush: BusWindowFigures;
  naive: BusWindowFigures;
  /** Any bus message carrying a field that could name a child. */
  leaks: number;
  /** Messages to a viewer, an admin map or a driver that named another school's records. */
  crossed: number;
}

export interface BusFigures extends BusRun {
  /** A dismissal's bus traffic at AWS prices, coalesced and naive. */
  dismissal: { coalesced: Priced; naive: Priced };
  dismissalMinutes: number;
}

// ── What the phases answer ───────────────────────────────────────────────────

/** The machine as the run started. */
export interface MachineFigures {
  cpus: number;
  node: string;
  platform: string;
  loadAverage: number[];
}

/** The setup: the school seeded, the staff signed in, every screen connected. */
export interface SetupFigures {
  plan: SchoolPlan & { screens: { staff: number; anonymous: number }; arrivalWindowSec: number };
  seed: { ms: number; writes: number; students: number; cars: number; staff: number; classrooms: number };
  ms: number;
  staff: Record<ScreenKind, number>;
  /** The channel of the school's staff events. */
  staffChannel: string;
  /** The meter of every screen's `$connect`. */
  connects: MeterCounters | undefined;
  /** The meter of the teachers' subscriptions to their classrooms (once per dismissal, as the connects). */
  subscribes?: MeterCounters | undefined;
}

/** The first session, before the rush: its creation's meter, the queue read before any pickup, the screens' first loads. */
export interface WarmUpFigures {
  sessionId: number;
  createSession: MeterCounters | undefined;
  early: QueueReadProbe;
  /** The meter of the staff screens' first reads of their lists. */
  loads: MeterSnapshot;
}

/** What the staff screens of one rush read, all screens together. */
export interface ScreenReadTally {
  /** Per route, the calls by why they happened. */
  byRoute: Record<string, Record<ReadReason, number>>;
  gaps: number;
  failedReads: number;
}

/** One rush (the main one or the baseline) as it ran. */
export interface RushFigures {
  mode: ScreenMode;
  cars: number;
  arrivalWindowSec: number;
  /** Wall time from the first arrival to the last car handled (not rounded). */
  seconds: number;
  timedOut: boolean;
  counts: RushCounts;
  unexpectedAnswers: string[];
  /** What the server's meter counted during the rush. */
  window: MeterSnapshot;
}

/** The baseline rush, and what its screens read (counted once they closed). */
export interface BaselineFigures extends RushFigures {
  reads: ScreenReadTally;
}

/** The meter (and CPU) at one moment of the rush. */
export interface RushSample {
  at: number;
  wall: number;
  snapshot: MeterSnapshot;
  completed: number;
  /** Entries the first front screen showed in the queue. */
  activeEntries: number;
  cpu: CpuSample | undefined;
}

/** One window of the rush: latency, CPU per process, and queue reads against queue length and pickups. */
export interface RushWindow {
  fromSec: number;
  toSec: number;
  apiCalls: number;
  apiP50Ms: number;
  apiP99Ms: number;
  deliveryP99Ms: number;
  serverCores: number;
  dynamoLocalCores: number | null;
  otherCores: number | null;
  /** GET /api/queue calls in the window (the screens' reads) and their read units per call. */
  polls: number;
  readUnitsPerCall: number;
  averageActiveEntries: number;
  completedPickupsAtEnd: number;
}

/** The main rush, and what was measured around it until every event was delivered. */
export interface MainRushFigures extends RushFigures {
  /** Staff events, commit to screen, and parent messages, publish to phone. */
  deliveryMs: Summary;
  parentDeliveryMs: Summary;
  cpu: CpuFigures;
  serverMemory: MemoryFigures;
  timeline: RushWindow[];
  /** The buses during the rush (coalesced relay): new positions delivered, and the window's figures. */
  buses: { deliveryMs: Summary; window: BusWindowFigures };
  /** Messages in and out over the rush, per kind of connection. */
  traffic: Record<TrafficKind, KindTraffic>;
}

/**
 * After the rush: what its screens read (counted once they closed), what it
 * left in the queue (cleared), and the queue read again with the same active cars.
 */
/** The rush's session report, read by the school admin after the rush (`GET /api/sessions/{id}/report`). */
export interface SessionReportRead {
  /** Cars and pickups in the report (the rush's session). */
  cars: number;
  pickups: number;
  /** Each read's time, client side, and the slowest. */
  reads: number[];
  slowestMs: number;
  /** DynamoDB read units per report read (the server's meter). */
  readUnitsPerRead: number;
  status: number;
}

export interface AfterRushFigures {
  reads: ScreenReadTally;
  leftInQueue: number;
  late: QueueReadProbe;
}

/** The floors, with the rush's rates they ran at. */
export interface FloorFigures {
  put: PutFloor[];
  broadcast: BroadcastFloor[];
  /** The rush's API calls, events and live messages that set the floors' rates. */
  requests: number;
  requestsPerSecond: number;
  rushEvents: number;
  rushMessages: number;
  messageBytes: number;
  eventsPerSecond: number;
}

/** What the clients and connections counted over the whole run, read once every screen closed. */
export interface Tallies {
  staff: {
    /** Each staff screen's kind. */
    kinds: ScreenKind[];
    /** Staff events each staff screen received. */
    received: number[];
    /**
     * Staff events each staff screen should have received: every one published
     * for a screen following the whole line; a teacher's (subscribed to its
     * classrooms) those that concern its classrooms, and the alerts.
     */
    expected: number[];
    /** Events a subscribed screen got that concern none of its classrooms. */
    outside: number;
    unstamped: number;
    byType: Record<string, number>;
  };
  anonymous: { screens: number; events: number; queueEvents: number };
  parents: {
    phones: number;
    byType: Record<string, number>;
    leaks: number;
    reads: number;
    polls: number;
  };
  /** Pings every screen sent (staff, anonymous, parents). */
  pingsSent: number;
  /** Messages that named another school's records, on any screen or phone (the bus fleet's are in `BusRun`). */
  crossed: number;
  /** The HTTP calls of the rush, and the setup's sign-ins, as the clients recorded them. */
  calls: {
    routes: Record<string, RouteFigures>;
    overall: Summary;
    networkErrors: number;
    serverErrors: number;
    login: RouteFigures | undefined;
  };
}

/** Everything `assembleReport` builds the report from, phase by phase. */
export interface PhaseResults {
  scale: number;
  startedAt: string;
  machine: MachineFigures;
  setup: SetupFigures;
  warmUp: WarmUpFigures;
  rush: MainRushFigures;
  buses: BusRun;
  afterRush: AfterRushFigures;
  sessionReport: SessionReportRead;
  /** The refetch-on-every-event baseline (null when the main rush was the baseline). */
  baseline: BaselineFigures | null;
  addToBatch: { at50: AddToBatchProbe; at300: AddToBatchProbe };
  /** Staff events published since the screens connected, once delivery settled. */
  publishedToStaff: number;
  floor: FloorFigures;
  /** The meter of every screen's `$disconnect`. */
  disconnects: MeterCounters | undefined;
  tallies: Tallies;
  generatorPeakRssMb: number;
}

// ── The report ───────────────────────────────────────────────────────────────

export interface RouteRow extends RouteFigures {
  route: string;
  /** From the server's meter: per call averages. */
  readUnitsPerCall: number;
  writeUnitsPerCall: number;
  dynamoCallsPerCall: number;
  messagesPerCall: number;
  handlerMsPerCall: number;
  /** DynamoDB operations per call: how many, and their units. */
  operations: Record<string, { callsPerCall: number; unitsPerCall: number }>;
}

export interface HandlerRow {
  handler: string;
  invocations: number;
  readUnits: number;
  writeUnits: number;
  messages: number;
  handlerMsPerCall: number;
}

/** What the staff screens read during one rush, and per event. */
export interface ScreenReads {
  mode: ScreenMode;
  cars: number;
  arrivalWindowSec: number;
  seconds: number;
  /** Events published to the school's staff in the window. */
  events: number;
  /** Read units of every screen read in the window (every list route; the staff themselves read nothing). */
  readUnits: number;
  readUnitsPerEvent: number;
  calls: number;
  /** Screen reads by why they happened: a new card, a poll, a missed event, an event (baseline). */
  byReason: Record<ReadReason, number>;
  byRoute: Record<string, { calls: number; readUnits: number }>;
  gaps: number;
  failedReads: number;
  /** Projected to a real 30-minute dismissal of the main rush's events: reads per event, polls per minute, loads once. */
  perDismissal: number;
}

/** The parents on the dashboard during the rush: what reached them, what they read, and what it costs. */
export interface ParentFigures {
  phones: number;
  /** Messages about their own child, all phones, by type. */
  messages: number;
  byType: Record<string, number>;
  messagesPerPhone: number;
  /** Messages that named another child or said more than the child's id and status. */
  leaks: number;
  deliveryMs: Summary;
  /** Status reads: after messages, and the 30 s polls. */
  reads: number;
  polls: number;
  readUnits: number;
  /** AWS prices of the parents' share of the rush: their messages and their status calls' read units. */
  messageDollars: number;
  readDollars: number;
}

export interface BenchReport {
  startedAt: string;
  /** Each function bundle's bytes and import time (the CLI measures them after the run; ADR 0019). */
  bundles?: BundleImport[];
  /** The buses of the rush: drivers at 1 Hz, map viewers, the admin's map screens. */
  buses: BusFigures;
  scale: number;
  machine: MachineFigures;
  plan: SchoolPlan & { screens: { staff: number; anonymous: number }; arrivalWindowSec: number };
  seed: { ms: number; writes: number; students: number; cars: number; staff: number; classrooms: number };
  setup: { ms: number; logins: number; loginLatencyMs: Summary };
  rush: {
    mode: ScreenMode;
    seconds: number;
    timedOut: boolean;
    counts: RushCounts;
    unexpectedAnswers: string[];
    networkErrors: number;
    serverErrors: number;
    leftInQueue: number;
    requests: number;
    requestsPerSecond: number;
  };
  api: { overall: Summary; routes: RouteRow[] };
  handlers: HandlerRow[];
  live: {
    deliveryMs: Summary;
    publishedToStaff: number;
    staffScreens: number;
    expectedPerScreen: number;
    receivedMin: number;
    receivedMax: number;
    /** Teacher screens subscribed to their classrooms, and what they should have got and got, all together. */
    narrowedScreens: number;
    narrowedExpected: number;
    narrowedReceived: number;
    /** Every staff screen's expected events, all together (whole-line screens and narrowed ones). */
    expected: number;
    lost: number;
    extra: number;
    /** Events a subscribed teacher screen got that concern none of its classrooms. */
    outside: number;
    /** Messages to any screen, phone, map or driver that named another school's records. */
    crossed: number;
    /** Messages in and out per car of the rush, by kind of connection. */
    messagesPerCar: KindMessages[];
    unstamped: number;
    anonymousScreens: number;
    anonymousEvents: number;
    leakedQueueEvents: number;
    messagesSent: number;
    messagesPerSecond: number;
    averageMessageBytes: number;
    eventsPerSecond: number;
    byType: Record<string, number>;
  };
  parents: ParentFigures;
  screens: {
    staff: Record<'front' | 'back' | 'teacher', number>;
    /** The staff screens' first reads of their lists when they open (once per session). */
    loads: { calls: number; readUnits: number };
    rush: ScreenReads;
    /** The same screens reading every list again per event, in a shorter rush of its own (same arrival rate). */
    baseline: ScreenReads | null;
    /** Screen read units per event, patching ÷ baseline. */
    ratio: number | null;
  };
  dynamo: {
    readUnits: number;
    writeUnits: number;
    estimatedWriteUnits: number;
    /** All write units of POST /api/queue per car, the event's sequence number included. */
    writeUnitsPerCarAdded: number;
    /** The queue's own write units per car (the entry and its place in the waiting line). */
    queueWriteUnitsPerCarAdded: number;
    /** The record's write units per car added (its event, and the transaction it makes the add). */
    recordWriteUnitsPerCarAdded: number;
    /** What the Idempotency-Key adds per car added: its record claimed, then the first answer kept. */
    idempotencyWriteUnitsPerCarAdded: number;
    /** The live events' sequence numbers: write units per event. */
    sequenceWriteUnitsPerEvent: number;
    /**
     * The rush's write units of the car line's three guarantees, every route:
     * the record's events (and the transactions they make), the
     * Idempotency-Keys, the live events' sequence numbers.
     */
    guarantees: { record: number; idempotency: number; sequence: number };
    queueReads: { early: QueueReadProbe; late: QueueReadProbe };
    sessionReport: SessionReportRead;
    addToBatch: { at50: AddToBatchProbe; at300: AddToBatchProbe };
  };
  memory: { server: MemoryFigures; generatorPeakRssMb: number };
  /** CPU used during the rush, per process. */
  cpu: CpuFigures;
  /** The rush in windows of time. */
  timeline: RushWindow[];
  floor: {
    /** Each floor ran twice; the ratios use the lower of the two. */
    put: PutFloor[];
    broadcast: BroadcastFloor[];
    putP50Ms: number;
    broadcastP99Ms: number;
    apiP50OverPutP50: number;
    fanoutP99OverBroadcastP99: number;
  };
  cost: CostModel;
  /** A dismissal with its buses and parents, measured, over the floor of the specification's intervals. */
  costVsFloor: { dismissal: number; floor: number; ratio: number };
}

export interface BudgetCheck {
  budget: string;
  value: string;
  pass: boolean;
}

// ── Many schools at once (`--schools N`) ────────────────────────────────────

/** One school of a many-schools run. */
export interface SchoolFigures {
  schoolId: number;
  cars: number;
  queued: number;
  /** Its rush's wall time. */
  seconds: number;
  timedOut: boolean;
  leftInQueue: number;
  /** Every live connection of the school (staff, anonymous, parents, map viewers, admin maps, drivers). */
  sockets: number;
  mapScreens: number;
  /** Messages its connections received over the rush (each a post of the server), and of those, the events and bus messages. */
  posts: number;
  events: number;
  busMessages: number;
  /** Posts a second as run (the rush compresses a dismissal about 10×). */
  postsPerSecond: number;
  /** Posts a second over a real 30-minute dismissal: the events spread over it, bus messages and pongs at their rates. */
  realPostsPerSecond: number;
  /** Schools of this size that API Gateway's default 10,000 posts a second serves at once, as run and at a real pace. */
  schoolsPerQuota: number;
  realSchoolsPerQuota: number;
  /** Staff events published to the school, and what its staff screens lost or got beyond what they follow. */
  published: number;
  lost: number;
  extra: number;
  /** Events a teacher screen got outside its classrooms. */
  outside: number;
  /** Messages to any of its connections that named another school's records. */
  crossed: number;
}

export interface SchoolsReport {
  startedAt: string;
  scale: number;
  schools: number;
  plan: SchoolPlan;
  arrivalWindowSec: number;
  /** Wall time of the rushes, from the first start to the last one done. */
  seconds: number;
  /** Every post the server made over the rushes (its meter), and per second. */
  serverPosts: number;
  serverPostsPerSecond: number;
  perSchool: SchoolFigures[];
}
