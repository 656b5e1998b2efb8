import { AsyncLocalStorage } from 'node:async_hooks';
import { cpuMsOfRunning, stopCpu, withCpu } from './meter-cpu';
import { tableDefinition } from './table';

/**
 * An in-process meter for the benchmark (`CURBSIDE_METER=1`): counters per
 * label, where the label is the Lambda handler that caused the work (the
 * laptop runtime runs every invocation inside `meter.run('http/addToQueue', …)`).
 * DynamoDB request units (from `ReturnConsumedCapacity`), live messages and
 * handler durations are added under the running invocation's label. Off (and
 * free) unless the variable is set.
 */
export type MeterCounters = Record<string, number>;
export type MeterSnapshot = Record<string, MeterCounters>;

/** Work outside any labelled invocation (a script, a test). */
export const UNLABELLED = 'unlabelled';

/**
 * Kept on the process, not in this module: the laptop runtime running the
 * built bundles (issue 55), each with its own copy of the store, still counts
 * their work under the label of the invocation it runs.
 */
const METER = Symbol.for('curbside.meter');
const shared = globalThis as {
  [METER]?: { labels: AsyncLocalStorage<string>; counters: Map<string, Map<string, number>> };
};
shared[METER] ??= { labels: new AsyncLocalStorage<string>(), counters: new Map() };
const state = shared[METER];
const labels = state.labels;

/** A DynamoDB call's start and end (`performance.now()`), within one invocation. */
export type CallSpan = readonly [start: number, end: number, what?: string];

/**
 * The calls of each running invocation, kept on the process as the labels are
 * (a bundle's own copy of the store records into the invocation the runtime started).
 */
const SPANS = Symbol.for('curbside.meter.spans');
const spanState = globalThis as { [SPANS]?: AsyncLocalStorage<CallSpan[]> };
spanState[SPANS] ??= new AsyncLocalStorage<CallSpan[]>();
const spans = spanState[SPANS];

/**
 * Sequential round trips of a set of calls: the longest chain of calls each of
 * which started after the one before it ended. Calls in flight together count
 * once (they are one wait on the way to the answer); a call that needed the
 * answer of another counts again.
 */
export const roundTripsOf = (calls: readonly CallSpan[]): number => {
  const byEnd = [...calls].sort((a, b) => a[1] - b[1]);
  const depth: number[] = [];
  let deepest = 0;
  for (let i = 0; i < byEnd.length; i++) {
    const [start] = byEnd[i] as CallSpan;
    let before = 0;
    for (let j = 0; j < i; j++) {
      if ((byEnd[j] as CallSpan)[1] <= start) before = Math.max(before, depth[j] as number);
    }
    depth[i] = before + 1;
    deepest = Math.max(deepest, before + 1);
  }
  return deepest;
};

export const meterEnabled = (): boolean => process.env.CURBSIDE_METER === '1';

export const meter = {
  /** Runs `fn` with work attributed to `label` (a plain call when metering is off). */
  run<T>(label: string, fn: () => T): T {
    return meterEnabled() ? labels.run(label, () => spans.run([], () => withCpu(fn))) : fn();
  },

  /**
   * The running invocation's own CPU so far, in ms (its running stretch included):
   * the thread's CPU time while its code runs (`meter-cpu.ts`), 0 outside a metered run.
   */
  cpuMs(): number {
    return cpuMsOfRunning();
  },

  /** Notes one DynamoDB call of the running invocation (its start and end), for `roundTrips`. */
  call(start: number, end: number, what?: string): void {
    // Only a metered run has a list (no environment read: a call into C++, about 0.17 µs).
    spans.getStore()?.push(what === undefined ? [start, end] : [start, end, what]);
  },

  /** The running invocation's DynamoDB calls so far, in the order they ended (a trace's `CURBSIDE_TRACE`). */
  calls(): readonly CallSpan[] {
    return spans.getStore() ?? [];
  },

  /** The running invocation's DynamoDB calls so far, as sequential round trips (`roundTripsOf`). */
  roundTrips(): number {
    return roundTripsOf(spans.getStore() ?? []);
  },

  /** The label of the running invocation. */
  label(): string {
    return labels.getStore() ?? UNLABELLED;
  },

  /** Adds `amount` to a counter of the running invocation's label (no-op when off). */
  add(counter: string, amount = 1): void {
    // Inside a metered run the meter is on (`run` read the environment once): no read a counter.
    const label = labels.getStore() ?? (meterEnabled() ? UNLABELLED : undefined);
    if (label === undefined) return;
    let of = state.counters.get(label);
    if (!of) {
      of = new Map<string, number>();
      state.counters.set(label, of);
    }
    of.set(counter, (of.get(counter) ?? 0) + amount);
  },

  /** Every counter of every label, as plain objects. */
  snapshot(): MeterSnapshot {
    const out: MeterSnapshot = {};
    for (const [label, of] of state.counters) out[label] = Object.fromEntries(of);
    return out;
  },

  /**
   * Every counter, cleared after (the item sizes kept for transactions stay): a worker
   * thread of the laptop runtime hands what its invocation counted to the main thread.
   */
  take(): MeterSnapshot {
    const out = meter.snapshot();
    state.counters = new Map();
    return out;
  },

  /** Adds the counters of a snapshot (what a worker thread counted) to this thread's. */
  absorb(snapshot: MeterSnapshot): void {
    for (const [label, values] of Object.entries(snapshot)) {
      const of = state.counters.get(label) ?? new Map<string, number>();
      state.counters.set(label, of);
      for (const [counter, amount] of Object.entries(values))
        of.set(counter, (of.get(counter) ?? 0) + amount);
    }
  },

  /** Clears the counters (and the item sizes kept for transactions); the CPU hook off once the meter is. */
  reset(): void {
    state.counters = new Map();
    known.clear();
    if (!meterEnabled()) stopCpu();
  },
};

const READS = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan', 'TransactGetItems']);
const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);
const KB = 1024;
const { partitionKey, sortKey, globalSecondaryIndexes } = tableDefinition;

interface Capacity {
  CapacityUnits?: number;
}
type Item = Record<string, unknown>;
interface TransactItem {
  Put?: { TableName?: string; Item?: Item };
  Update?: { TableName?: string; Key?: Item };
  Delete?: { TableName?: string; Key?: Item };
  ConditionCheck?: { TableName?: string; Key?: Item };
}

/** DynamoDB's size of a (document client, unmarshalled) value, in bytes. */
const valueSize = (value: unknown): number => {
  if (value === null || value === undefined || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number' || typeof value === 'bigint') {
    const digits = String(value)
      .replace(/^-|\.|e.*$/gi, '')
      .replace(/^0+|0+$/g, '').length;
    return Math.ceil(Math.max(1, digits) / 2) + 1;
  }
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Set) return [...value].reduce((sum: number, member) => sum + valueSize(member), 0);
  if (Array.isArray(value)) return 3 + value.reduce((sum: number, member) => sum + 1 + valueSize(member), 0);
  if (typeof value === 'object') return 3 + itemSize(value as Item) + Object.keys(value).length;
  return 1;
};

/** An item's size as DynamoDB counts it: attribute names plus values. */
export const itemSize = (item: Item): number =>
  Object.entries(item).reduce(
    (sum, [name, value]) => (value === undefined ? sum : sum + Buffer.byteLength(name) + valueSize(value)),
    0,
  );

const writeUnitsOf = (bytes: number) => Math.max(1, Math.ceil(bytes / KB));

interface Known {
  bytes: number;
  /** How many of the table's indexes the item is in. */
  indexes: number;
}

/**
 * Sizes of the items this process wrote, so a transaction's Update and
 * Delete can be billed by the size of the item they change (DynamoDB Local
 * reports one flat figure for a whole transaction). Bounded; oldest out first.
 */
const known = new Map<string, Known>();
const KNOWN_LIMIT = 100_000;
const keyOf = (table: string | undefined, key: Item | undefined) =>
  `${table}\u0000${String(key?.[partitionKey])}\u0000${String(key?.[sortKey])}`;
const remember = (table: string | undefined, item: Item) => {
  const id = keyOf(table, item);
  known.delete(id);
  known.set(id, {
    bytes: itemSize(item),
    indexes: globalSecondaryIndexes.filter((index) => item[index.partitionKey] !== undefined).length,
  });
  if (known.size > KNOWN_LIMIT) known.delete(known.keys().next().value as string);
};

/** Notes what a successful write did to the items, for later transactions. */
export const observeWrite = (
  operation: string,
  input: {
    TableName?: string;
    Item?: Item;
    Key?: Item;
    TransactItems?: TransactItem[];
    RequestItems?: Record<string, Array<{ PutRequest?: { Item?: Item }; DeleteRequest?: { Key?: Item } }>>;
  },
): void => {
  if (operation === 'PutItem' && input.Item) remember(input.TableName, input.Item);
  if (operation === 'DeleteItem') known.delete(keyOf(input.TableName, input.Key));
  for (const item of input.TransactItems ?? []) {
    if (item.Put?.Item) remember(item.Put.TableName, item.Put.Item);
    if (item.Delete) known.delete(keyOf(item.Delete.TableName, item.Delete.Key));
  }
  if (operation !== 'BatchWriteItem') return;
  for (const [table, requests] of Object.entries(input.RequestItems ?? {})) {
    for (const request of requests) {
      if (request.PutRequest?.Item) remember(table, request.PutRequest.Item);
      if (request.DeleteRequest) known.delete(keyOf(table, request.DeleteRequest.Key));
    }
  }
};

/**
 * A transaction's write units as AWS bills them: 2 per KB of each item on the
 * table (an Update or Delete by the size of the item it changes, a Put by its
 * new item), plus 1 per KB for each index the item is in (index updates
 * propagate after the transaction as ordinary writes). An item this process
 * has not seen written counts 1 KB in no index, and as estimated.
 */
export const transactionUnits = (items: readonly TransactItem[]): { units: number; estimated: number } => {
  let units = 0;
  let estimated = 0;
  for (const item of items) {
    if (item.Put?.Item) {
      const bytes = itemSize(item.Put.Item);
      const indexes = globalSecondaryIndexes.filter(
        (index) => item.Put?.Item?.[index.partitionKey] !== undefined,
      );
      units += 2 * writeUnitsOf(bytes) + indexes.length * writeUnitsOf(bytes);
      continue;
    }
    const target = item.Update ?? item.Delete ?? item.ConditionCheck;
    const seen = known.get(keyOf(target?.TableName, target?.Key));
    const size = writeUnitsOf(seen?.bytes ?? KB);
    const here = 2 * size + (item.ConditionCheck ? 0 : (seen?.indexes ?? 0) * size);
    units += here;
    if (!seen) estimated += here;
  }
  return { units, estimated };
};

/**
 * The request units AWS would bill for one call, from what DynamoDB Local
 * reports, applying the rules Local gets wrong or leaves out (DESIGN.md,
 * "AWS facts"):
 * - a transaction costs double: computed from the items' sizes
 *   (`transactionUnits`), because Local reports one flat figure;
 * - a failed conditional write still costs a write: the item's size is unknown
 *   here, so 1 unit per item (2 in a transaction), marked as estimated;
 * - a read request is billed at least one read of its consistency (0.5 units
 *   eventually consistent, 1 strongly) even when it finds nothing.
 */
export const billedUnits = (
  operation: string,
  input: { ConsistentRead?: boolean; TransactItems?: TransactItem[] },
  outcome:
    | { ok: true; consumed: Capacity | Capacity[] | undefined }
    | { ok: false; errorName: string | undefined },
): { read: number; write: number; estimated: number } => {
  const isRead = READS.has(operation);
  const isWrite = WRITES.has(operation);
  const transactional = operation.startsWith('Transact');
  if (!outcome.ok) {
    const conditional =
      outcome.errorName === 'ConditionalCheckFailedException' ||
      outcome.errorName === 'TransactionCanceledException';
    if (!isWrite || !conditional) return { read: 0, write: 0, estimated: 0 };
    const items = transactional ? (input.TransactItems?.length ?? 1) : 1;
    const units = items * (transactional ? 2 : 1);
    return { read: 0, write: units, estimated: units };
  }
  if (operation === 'TransactWriteItems') {
    const { units, estimated } = transactionUnits(input.TransactItems ?? []);
    return { read: 0, write: units, estimated };
  }
  const list = Array.isArray(outcome.consumed)
    ? outcome.consumed
    : outcome.consumed
      ? [outcome.consumed]
      : [];
  let units =
    list.reduce((sum, capacity) => sum + (capacity.CapacityUnits ?? 0), 0) * (transactional ? 2 : 1);
  if (isRead && (operation === 'GetItem' || operation === 'Query')) {
    units = Math.max(units, input.ConsistentRead ? 1 : 0.5);
  }
  return { read: isRead ? units : 0, write: isWrite ? units : 0, estimated: 0 };
};
