import { Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useSyncExternalStore } from 'react';
import { errorMessage } from '../../lib/http';

/**
 * Undo for the destructive queue actions (complete a pickup, remove a
 * vehicle, dismiss an overflow vehicle), without holding anything on the
 * device: the change is sent at once (every other screen and the parents
 * see it at once), and the toast's Undo, for {@link UNDO_MS}, sends the
 * inverse (`POST /api/queue/{id}/restore`, which the server accepts for 60 s):
 * the vehicle comes back with its id and place on every screen. The toast
 * names the car (`Car 112`): on a busy curb the last removal is not always
 * the one in mind.
 */
export const UNDO_MS = 10_000;

/** Ids of entries whose removal was sent and not yet answered: screens hide them meanwhile. */
const sending = new Set<string>();
const listeners = new Set<() => void>();
let snapshot: ReadonlySet<string> = new Set();

const changed = () => {
  snapshot = new Set(sending);
  for (const listener of listeners) listener();
};

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Ids of the queue entries being removed from this screen (sent, not yet answered): screens hide them. */
export const usePendingRemovals = (): ReadonlySet<string> =>
  useSyncExternalStore(
    subscribe,
    () => snapshot,
    () => snapshot,
  );

/**
 * Hides entry `entryId` and sends `send` at once; once it succeeded, a toast
 * naming `vehicle` offers Undo, which calls `restore` (the inverse) and says
 * so when the server refuses (too late, or the car was queued again).
 */
export const withUndo = (
  entryId: string,
  toast: { title: string; vehicle: string; message: string },
  send: () => Promise<unknown>,
  restore: () => Promise<unknown>,
) => {
  const toastId = `undo-${entryId}`;
  sending.add(entryId);
  changed();
  const undo = () => {
    notifications.hide(toastId);
    restore().catch((error: unknown) =>
      notifications.show({ color: 'red', title: 'Could not undo', message: errorMessage(error) }),
    );
  };
  send()
    .then(() =>
      notifications.show({
        id: toastId,
        title: toast.title,
        autoClose: UNDO_MS,
        message: (
          // The text gives way (it wraps), never the button: its word stays whole.
          <Group justify="space-between" wrap="nowrap" gap="sm">
            <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
              <Text fz="lg" fw={800} c="var(--mantine-color-text)">
                {toast.vehicle}
              </Text>
              {toast.message && (
                <Text fz="md" c="var(--mantine-color-text)">
                  {toast.message}
                </Text>
              )}
            </Stack>
            <Button size="md" variant="outline" onClick={undo} style={{ flexShrink: 0 }}>
              Undo
            </Button>
          </Group>
        ),
      }),
    )
    .catch(() => {
      // The mutation's own onError says what went wrong and reads the queue again.
    })
    .finally(() => {
      sending.delete(entryId);
      changed();
    });
};
