import type { QueueEntry } from '@curbside/domain';
import type { QueryKey } from '@tanstack/react-query';
import { entryChanges, restoredBy, withNewer, without } from '../live/changes';
import { cachePatch } from '../live/live-sync';
import { releasesPatch } from './releases';

/** Query keys of a session's queue: active entries and completed pickups. */
export const queueKeys = {
  all: ['queue'] as const,
  active: (sessionId: number) => [...queueKeys.all, sessionId, 'active'] as const,
  completed: (sessionId: number) => [...queueKeys.all, sessionId, 'completed'] as const,
};

const isKey = (queryKey: QueryKey, expected: QueryKey) =>
  queryKey.length === expected.length && expected.every((part, i) => queryKey[i] === part);

/**
 * Completed pickups newest first, as `GET /api/queue?status=completed` lists
 * them (at most 200): by exit time, then by id, both descending.
 */
const newestFirst = (a: QueueEntry, b: QueueEntry) =>
  (b.exitTime ?? '').localeCompare(a.exitTime ?? '') || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
const RECENT_PICKUPS = 200;

/** The active list with an entry's new state: in it while queued (the newer copy), out once it left. */
export const withEntry = (list: QueueEntry[], entry: QueueEntry, left: boolean): QueueEntry[] =>
  left || entry.status === 'completed' ? without(list, entry.id) : withNewer(list, entry);

/** The active queue follows every entry the events carry. */
export const activeQueuePatch = cachePatch<QueueEntry[]>({
  name: 'queue.active',
  matches: (queryKey, sessionId) => isKey(queryKey, queueKeys.active(sessionId)),
  reduce: (list, event, context) =>
    entryChanges(event).reduce(
      (next, { entry, left }) => withEntry(next, entry, left || context.ended(entry.id)),
      list,
    ),
});

/** Recent pickups gain every entry an event completes. */
export const completedQueuePatch = cachePatch<QueueEntry[]>({
  name: 'queue.completed',
  matches: (queryKey, sessionId) => isKey(queryKey, queueKeys.completed(sessionId)),
  reduce: (before, event) => {
    // Undo of a pickup takes it off Recent Pickups.
    const back = restoredBy(event);
    const list = back.length === 0 ? before : before.filter((entry) => !back.includes(entry.id));
    const done = entryChanges(event)
      .map((change) => change.entry)
      .filter((entry) => entry.status === 'completed' && !list.some((item) => item.id === entry.id));
    return done.length === 0 ? list : [...done, ...list].sort(newestFirst).slice(0, RECENT_PICKUPS);
  },
});

/** Every list of the queue a screen keeps current, and the children's release marks. */
export const queuePatches = [activeQueuePatch, completedQueuePatch, releasesPatch] as const;
