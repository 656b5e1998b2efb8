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
  /** Buses queued at the front and completed once loaded (issue 52: 30% of the school rides one). */
  busesQueued: number;
  busesCompleted: number;
  /** Students released by the teachers' one-press releases: walkers (10%), and each bus's riders as it loads. */
  walkersReleased: number;
  busRidersReleased: number;
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
