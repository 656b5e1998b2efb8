import type { CarLineEvent } from '@curbside/api';
import type { QueueEntry } from '@curbside/domain';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { batchKeys, batchPatches } from '../src/features/back-queue/batches.cache';
import { LiveSync } from '../src/features/live/live-sync';
import { queueKeys, queuePatches } from '../src/features/queue/queue.cache';

/**
 * The web client's cache sync, with a real QueryClient and an observed query
 * (as a mounted screen has): events patch the cached list, and only a
 * skipped sequence number makes the screen read the list again, once.
 */
const SESSION = 7;
const GRACE_MS = 60;

const entry = (number: string, version = 1, change: Partial<QueueEntry> = {}): QueueEntry => ({
  id: `${SESSION}-car-${number}-1900000000000-abc`,
  sessionId: SESSION,
  schoolId: 1,
  vehicleId: null,
  vehicleNumber: number,
  vehicleType: 'car',
  batchId: null,
  batchNumber: null,
  status: 'waiting',
  position: null,
  entryTime: `2030-01-01T15:00:0${number.slice(-1)}.000Z`,
  queueTime: `2030-01-01T15:00:0${number.slice(-1)}.000Z`,
  exitTime: null,
  vehicle: null,
  students: [],
  version,
  ...change,
});

const queued = (seq: number, queuedEntry: QueueEntry): CarLineEvent => ({
  type: 'VEHICLE_QUEUED',
  sessionId: SESSION,
  seq,
  data: {
    entry: queuedEntry,
    vehicle: {
      number: queuedEntry.vehicleNumber,
      type: 'car',
      make: null,
      model: null,
      color: null,
      parentName: null,
      alternateContactName: null,
    },
  },
});
const changed = (seq: number, changedEntry: QueueEntry): CarLineEvent => ({
  type: 'QUEUE_STATUS_UPDATED',
  sessionId: SESSION,
  seq,
  data: { entry: changedEntry, batch: null },
});
const removed = (seq: number, removedEntry: QueueEntry): CarLineEvent => ({
  type: 'VEHICLE_REMOVED',
  sessionId: SESSION,
  seq,
  data: { entry: removedEntry, batch: null },
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let stop: () => void = () => {};
afterEach(() => stop());

/** A screen showing the session's queue: the server's list, how often it was read, the sync. */
const screen = async (server: QueueEntry[] = []) => {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY } } });
  const reads = { count: 0 };
  const observer = new QueryObserver(client, {
    queryKey: queueKeys.active(SESSION),
    queryFn: async () => {
      reads.count++;
      return [...server];
    },
  });
  const unsubscribe = observer.subscribe(() => {});
  const gaps: number[][] = [];
  const sync = new LiveSync(client, { gapGraceMs: GRACE_MS, onGap: (_, missing) => gaps.push(missing) });
  const unregister = sync.register(queuePatches);
  stop = () => {
    unregister();
    sync.stop();
    unsubscribe();
    client.clear();
  };
  await expect.poll(() => client.getQueryData(queueKeys.active(SESSION))).toBeDefined();
  const shown = () =>
    (client.getQueryData<QueueEntry[]>(queueKeys.active(SESSION)) ?? []).map((e) => [
      e.vehicleNumber,
      e.status,
    ]);
  return { client, sync, reads, gaps, shown, server };
};

describe('the live cache sync', () => {
  it('applies events in order to the cached list without reading it again', async () => {
    const { sync, reads, shown } = await screen();
    sync.receive(queued(1, entry('101')));
    sync.receive(queued(2, entry('102')));
    sync.receive(changed(3, entry('101', 2, { status: 'overflow' })));
    sync.receive(removed(4, entry('102', 2)));
    expect(shown()).toEqual([['101', 'overflow']]);
    await sleep(GRACE_MS * 3);
    expect(reads.count).toBe(1);
  });

  it('reads the list again exactly once for an event with a sequence gap', async () => {
    const { sync, reads, gaps, shown, server } = await screen();
    sync.receive(queued(1, entry('101')));
    sync.receive(queued(2, entry('102')));
    // Number 3 never arrives; 4, 5 and 6 do.
    server.push(entry('101'), entry('102'), entry('103'));
    sync.receive(queued(4, entry('104')));
    sync.receive(queued(5, entry('105')));
    sync.receive(queued(6, entry('106')));
    await expect.poll(() => reads.count).toBe(2);
    expect(gaps).toEqual([[3]]);
    // The list read again, with the events it may have missed applied once more.
    await expect
      .poll(() => shown().map(([number]) => number))
      .toEqual(['101', '102', '103', '104', '105', '106']);
    sync.receive(queued(7, entry('107')));
    sync.receive(queued(8, entry('108')));
    await sleep(GRACE_MS * 3);
    expect(reads.count).toBe(2);
    expect(gaps).toHaveLength(1);
  });

  it('waits out an event that was merely overtaken: no gap, no read', async () => {
    const { sync, reads, gaps, shown } = await screen();
    sync.receive(queued(1, entry('101')));
    sync.receive(queued(3, entry('103')));
    sync.receive(queued(2, entry('102')));
    await sleep(GRACE_MS * 3);
    expect(shown().map(([number]) => number)).toEqual(['101', '102', '103']);
    expect(reads.count).toBe(1);
    expect(gaps).toEqual([]);
  });

  it('never lets a late older copy undo a newer one or bring back a visit that left', async () => {
    const { sync, shown } = await screen();
    sync.receive(queued(1, entry('101')));
    sync.receive(changed(2, entry('101', 3, { status: 'ready' })));
    sync.receive(changed(1, entry('101', 2, { status: 'overflow' })));
    expect(shown()).toEqual([['101', 'ready']]);
    sync.receive(removed(3, entry('101', 4)));
    sync.receive(changed(2, entry('101', 3, { status: 'ready' })));
    expect(shown()).toEqual([]);
  });

  it('applies the recent events again to a list read while they were on their way', async () => {
    const { client, sync, reads, shown, server } = await screen();
    sync.receive(queued(1, entry('101')));
    sync.receive(removed(2, entry('101', 2)));
    sync.receive(queued(3, entry('102')));
    // A read that raced the events: it still shows 101 and not yet 102.
    server.push(entry('101'));
    await client.refetchQueries({ queryKey: queueKeys.active(SESSION) });
    expect(reads.count).toBe(2);
    expect(shown()).toEqual([['102', 'waiting']]);
  });

  it('starts counting again after the connection came back', async () => {
    const { sync, reads, gaps } = await screen();
    sync.receive(queued(1, entry('101')));
    sync.reset();
    // Events of the gap went to no socket; the provider reads every list again on reopen.
    sync.receive(queued(9, entry('109')));
    sync.receive(queued(10, entry('110')));
    await sleep(GRACE_MS * 3);
    expect(gaps).toEqual([]);
    expect(reads.count).toBe(1);
  });

  it("keeps a new batch's vehicles read after their queued events, which were older", async () => {
    // The four cars were queued (version 1, no batch); one tap put them in batch 5 (version 2).
    const BATCH = 5;
    const cars = ['101', '102', '103', '104'];
    const inBatch = cars.map((number) =>
      entry(number, 2, { batchId: BATCH, batchNumber: 1, status: 'waiting' }),
    );
    const { client, sync } = await screen();
    sync.register(batchPatches);
    for (const [i, number] of cars.entries()) sync.receive(queued(i + 1, entry(number)));
    // The batch's vehicles are read before the events that moved the cars arrive.
    const observer = new QueryObserver(client, {
      queryKey: batchKeys.vehicles(BATCH),
      queryFn: async () => inBatch,
    });
    const unsubscribe = observer.subscribe(() => {});
    const inCard = () =>
      (client.getQueryData<QueueEntry[]>(batchKeys.vehicles(BATCH)) ?? []).map((e) => e.vehicleNumber);
    await expect.poll(inCard).toEqual(cars);
    // A car taken back to the queue (newer) leaves the card.
    sync.receive(changed(5, entry('104', 3)));
    expect(inCard()).toEqual(['101', '102', '103']);
    unsubscribe();
  });
});
