import type { Summary } from './options';

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

/** The machine as the run started. */
export interface MachineFigures {
  cpus: number;
  node: string;
  platform: string;
  loadAverage: number[];
}
