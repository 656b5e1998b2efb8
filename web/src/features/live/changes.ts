import type { CarLineEvent } from '@curbside/api';
import type { Batch, QueueEntry } from '@curbside/domain';

/** A queue entry an event carries, and whether it left the queue with that event (removed or picked up). */
export interface EntryChange {
  entry: QueueEntry;
  left: boolean;
}

/** The queue entries a car-line event changed, as they are after it. */
export const entryChanges = (event: CarLineEvent): EntryChange[] => {
  switch (event.type) {
    case 'VEHICLE_QUEUED':
    case 'VEHICLE_RESTORED':
      return [{ entry: event.data.entry, left: false }];
    case 'VEHICLE_REMOVED':
      return [{ entry: event.data.entry, left: true }];
    case 'QUEUE_STATUS_UPDATED':
      return event.data.entry
        ? [{ entry: event.data.entry, left: event.data.entry.status === 'completed' }]
        : [];
    case 'VEHICLES_REMOVED_FROM_QUEUE':
      return event.data.entries.map((entry) => ({ entry, left: true }));
    default:
      return [];
  }
};

/** The batch a car-line event changed (created, count, completed), as it is after it. */
export const batchChange = (event: CarLineEvent): Batch | null => {
  switch (event.type) {
    case 'VEHICLE_REMOVED':
    case 'QUEUE_STATUS_UPDATED':
    case 'VEHICLE_RESTORED':
    case 'VEHICLES_REMOVED_FROM_QUEUE':
      return event.data.batch;
    default:
      return null;
  }
};

/**
 * What an event ended for good: visits that left the queue (their ids are
 * never given again) and dismissed alerts (`alert:{id}`). A late copy of an
 * older event never brings them back.
 */
export const endedBy = (event: CarLineEvent): string[] => [
  ...entryChanges(event)
    .filter((change) => change.left)
    .map((change) => change.entry.id),
  ...(event.type === 'ALERT_DISMISSED' ? [`alert:${event.data.id}`] : []),
];

/** Visits an event brought back (Undo): ended no more, the one exception to "ended for good". */
export const restoredBy = (event: CarLineEvent): string[] =>
  event.type === 'VEHICLE_RESTORED' ? [event.data.entry.id] : [];

/** A record with a version: the copy with the higher version is the newer one. */
interface Versioned {
  id: string | number;
  version: number;
}

/** The list with `item` in it: added when new, replaced when newer, unchanged otherwise (same array). */
export const withNewer = <T extends Versioned>(list: T[], item: T): T[] => {
  const at = list.findIndex((other) => other.id === item.id);
  if (at < 0) return [...list, item];
  const current = list[at];
  if (current && current.version >= item.version) return list;
  return list.map((other, i) => (i === at ? item : other));
};

/**
 * The list without `item`'s record, unless the list holds that record at a
 * version at least as new: an older copy replayed onto a list just read
 * (a car queued before it joined a batch) never takes the newer one out.
 */
export const withoutOlder = <T extends Versioned>(list: T[], item: T): T[] => {
  const current = list.find((other) => other.id === item.id);
  return current && current.version >= item.version ? list : without(list, item.id);
};

/** The list without the record `id` (the same array when it was not there). */
export const without = <T extends { id: string | number }>(list: T[], id: T['id']): T[] =>
  list.some((item) => item.id === id) ? list.filter((item) => item.id !== id) : list;
