import type { BundleImport } from '@curbside/functions/build/bundle-imports';
import type { BusFigures } from './buses';
import type { CostModel } from './cost';
import type {
  AddToBatchProbe,
  BroadcastFloor,
  CpuFigures,
  MachineFigures,
  MemoryFigures,
  PutFloor,
  QueueReadProbe,
} from './machine';
import type {
  KindMessages,
  ReadReason,
  RouteFigures,
  RushCounts,
  SchoolPlan,
  ScreenMode,
  Summary,
} from './options';
import type { RushWindow, SessionReportRead } from './phases';

export interface RouteRow extends RouteFigures {
  route: string;
  /** From the server's meter: per call averages. */
  readUnitsPerCall: number;
  writeUnitsPerCall: number;
  dynamoCallsPerCall: number;
  /** Sequential DynamoDB round trips on the way to the answer (calls in flight together count once; issue 54). */
  roundTripsPerCall: number;
  messagesPerCall: number;
  handlerMsPerCall: number;
  /**
   * The handler's own CPU per call, in ms (the meter's `lambda.cpuMs`: the thread's CPU time in
   * the invocation's own code, issue 54); the modelled AWS latency is based on it.
   */
  handlerCpuMsPerCall: number;
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
