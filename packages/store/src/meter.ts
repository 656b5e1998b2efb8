import { AsyncLocalStorage } from 'node:async_hooks';

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

const labels = new AsyncLocalStorage<string>();
let counters = new Map<string, Map<string, number>>();

export const meterEnabled = (): boolean => process.env.CURBSIDE_METER === '1';

export const meter = {
  /** Runs `fn` with work attributed to `label` (a plain call when metering is off). */
  run<T>(label: string, fn: () => T): T {
    return meterEnabled() ? labels.run(label, fn) : fn();
  },

  /** The label of the running invocation. */
  label(): string {
    return labels.getStore() ?? UNLABELLED;
  },

  /** Adds `amount` to a counter of the running invocation's label (no-op when off). */
  add(counter: string, amount = 1): void {
    if (!meterEnabled()) return;
    const label = labels.getStore() ?? UNLABELLED;
    const of = counters.get(label) ?? new Map<string, number>();
    counters.set(label, of);
    of.set(counter, (of.get(counter) ?? 0) + amount);
  },

  /** Every counter of every label, as plain objects. */
  snapshot(): MeterSnapshot {
    const out: MeterSnapshot = {};
    for (const [label, of] of counters) out[label] = Object.fromEntries(of);
    return out;
  },

  reset(): void {
    counters = new Map();
  },
};

const READS = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan', 'TransactGetItems']);
const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);

interface Capacity {
  CapacityUnits?: number;
}

/**
 * The request units AWS would bill for one call, from what DynamoDB Local
 * reports, applying the rules Local leaves out (DESIGN.md, "AWS facts"):
 * - a transaction costs double (Local reports the plain units);
 * - a failed conditional write still costs a write: the item's size is unknown
 *   here, so 1 unit per item (2 in a transaction), marked as estimated;
 * - a read request is billed at least one read of its consistency (0.5 units
 *   eventually consistent, 1 strongly) even when it finds nothing.
 */
export const billedUnits = (
  operation: string,
  input: { ConsistentRead?: boolean; TransactItems?: unknown[]; RequestItems?: Record<string, unknown> },
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
