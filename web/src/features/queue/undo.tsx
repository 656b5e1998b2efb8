import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useSyncExternalStore } from 'react';

/**
 * Undo for the destructive queue actions (complete a pickup, remove a
 * vehicle, dismiss an overflow vehicle), by delayed commit: the vehicle
 * leaves this screen at once and a toast offers Undo for {@link UNDO_MS};
 * the change is sent to the server only when that time is up, so Undo
 * restores the vehicle exactly as it was (nothing was changed). Leaving or
 * reloading the page sends what is still waiting at once.
 */
export const UNDO_MS = 5_000;

interface Pending {
  timer: ReturnType<typeof setTimeout>;
  commit: () => void;
}

const pending = new Map<string, Pending>();
const listeners = new Set<() => void>();
let snapshot: ReadonlySet<string> = new Set();

const changed = () => {
  snapshot = new Set(pending.keys());
  for (const listener of listeners) listener();
};

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Ids of the queue entries whose removal waits for its Undo time: screens hide them. */
export const usePendingRemovals = (): ReadonlySet<string> =>
  useSyncExternalStore(
    subscribe,
    () => snapshot,
    () => snapshot,
  );

/** Sends every change still waiting for its Undo time (the page is going away). */
export const commitPending = () => {
  for (const [key, item] of [...pending]) {
    clearTimeout(item.timer);
    pending.delete(key);
    item.commit();
  }
  changed();
};

if (typeof window !== 'undefined') window.addEventListener('pagehide', commitPending);

/**
 * Hides entry `entryId` now and sends `commit` after {@link UNDO_MS} unless
 * the toast's Undo is pressed first. A second action on the same entry
 * replaces the first.
 */
export const withUndo = (entryId: string, title: string, message: string, commit: () => void) => {
  const before = pending.get(entryId);
  if (before) clearTimeout(before.timer);
  const toastId = `undo-${entryId}`;
  const run = () => {
    pending.delete(entryId);
    changed();
    commit();
  };
  const undo = () => {
    const item = pending.get(entryId);
    if (item) clearTimeout(item.timer);
    pending.delete(entryId);
    changed();
    notifications.hide(toastId);
  };
  pending.set(entryId, { timer: setTimeout(run, UNDO_MS), commit });
  changed();
  notifications.show({
    id: toastId,
    title,
    autoClose: UNDO_MS,
    message: (
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Text fz="md" c="var(--mantine-color-text)">
          {message}
        </Text>
        <Button size="md" variant="outline" onClick={undo}>
          Undo
        </Button>
      </Group>
    ),
  });
};
