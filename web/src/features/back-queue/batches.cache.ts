import type { Batch, QueueEntry } from '@curbside/domain';
import type { QueryKey } from '@tanstack/react-query';
import { batchChange, entryChanges, withNewer, without, withoutOlder } from '../live/changes';
import { cachePatch } from '../live/live-sync';
import { batchKeys } from '../queue/batch-keys';

export { batchKeys };

const isKey = (queryKey: QueryKey, expected: QueryKey) =>
  queryKey.length === expected.length && expected.every((part, i) => queryKey[i] === part);

const byNumber = (a: Batch, b: Batch) => a.batchNumber - b.batchNumber;

/** Loading batches: counts follow the events; a completed batch leaves the list. */
export const activeBatchesPatch = cachePatch<Batch[]>({
  name: 'batches.active',
  matches: (queryKey, sessionId) => isKey(queryKey, batchKeys.active(sessionId)),
  reduce: (list, event) => {
    const batch = batchChange(event);
    if (!batch) return list;
    if (batch.status !== 'loading') return without(list, batch.id);
    const next = withNewer(list, batch);
    return next === list ? list : [...next].sort(byNumber);
  },
});

/** 'Completed Batches Today' gains each batch as it completes. */
export const completedBatchesPatch = cachePatch<Batch[]>({
  name: 'batches.completed',
  matches: (queryKey, sessionId) => isKey(queryKey, batchKeys.completed(sessionId)),
  reduce: (list, event) => {
    const batch = batchChange(event);
    if (batch?.status !== 'completed' || list.some((item) => item.id === batch.id)) return list;
    return [...list, batch].sort(byNumber);
  },
});

/** The batch id of a loading batch's vehicles query, or undefined for any other query. */
const vehiclesBatchId = (queryKey: QueryKey): number | undefined => {
  const [all, vehicles, batchId] = queryKey;
  return queryKey.length === 3 &&
    all === batchKeys.all[0] &&
    vehicles === 'vehicles' &&
    typeof batchId === 'number'
    ? batchId
    : undefined;
};

/**
 * A loading batch's vehicles: an entry joins when it names the batch and
 * leaves when it moves out or leaves the queue. A batch's first vehicle
 * makes its list known in full, so the card shows it without a read; a
 * completed batch's vehicles are the event's entries.
 */
export const batchVehiclesPatch = cachePatch<QueueEntry[]>({
  name: 'batches.vehicles',
  // Batch ids are unique across sessions: the key names no session.
  matches: (queryKey) => vehiclesBatchId(queryKey) !== undefined,
  reduce: (list, event, context, queryKey) => {
    const batchId = vehiclesBatchId(queryKey);
    return entryChanges(event).reduce((next, { entry, left }) => {
      if (left || context.ended(entry.id)) return without(next, entry.id);
      return entry.batchId === batchId ? withNewer(next, entry) : withoutOlder(next, entry);
    }, list);
  },
  create: (client, event) => {
    if (event.type === 'VEHICLES_REMOVED_FROM_QUEUE') {
      const key = batchKeys.historyOf(event.data.batch.id);
      if (client.getQueryData(key) === undefined) client.setQueryData<QueueEntry[]>(key, event.data.entries);
      return;
    }
    const batch = batchChange(event);
    const [change] = entryChanges(event);
    if (!batch || !change || change.left || change.entry.batchId !== batch.id || batch.currentCount !== 1)
      return;
    const key = batchKeys.vehicles(batch.id);
    if (client.getQueryData(key) === undefined) client.setQueryData<QueueEntry[]>(key, [change.entry]);
  },
});

/** Every list of batches the back queue keeps current. */
export const batchPatches = [activeBatchesPatch, completedBatchesPatch, batchVehiclesPatch] as const;
