import type { MeterCounters, MeterSnapshot } from '@curbside/store';
import type { BusRun, BusWindowFigures } from './buses';
import type {
  AddToBatchProbe,
  BroadcastFloor,
  CpuFigures,
  CpuSample,
  MachineFigures,
  MemoryFigures,
  PutFloor,
  QueueReadProbe,
} from './machine';
import type {
  KindTraffic,
  ReadReason,
  RouteFigures,
  RushCounts,
  SchoolPlan,
  ScreenKind,
  ScreenMode,
  Summary,
  TrafficKind,
} from './options';

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
