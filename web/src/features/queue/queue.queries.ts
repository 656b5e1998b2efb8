import { routes } from '@curbside/api';
import {
  type AddVehicleInput,
  type QueueEntry,
  type QueueStatus,
  type RemovalReason,
  vehicleName,
} from '@curbside/domain';
import { notifications } from '@mantine/notifications';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { errorMessage } from '../../lib/http';
import { useLiveSync } from '../live/live';
import { notComingOf } from './not-called';
import { queueKeys, withEntry } from './queue.cache';
import { withUndo } from './undo';
import { unreleasedOf } from './unreleased';
import { askUnreleased, type Completing, useAskFirst } from './unreleased-question';
import { sendOrKeep } from './use-outbox';

/** The pickup queue of a session: active entries and completed pickups (kept current by `queuePatches`). */
export const queueQueries = {
  all: queueKeys.all,
  active: (sessionId: number) =>
    queryOptions({
      queryKey: queueKeys.active(sessionId),
      queryFn: () => api(routes.listQueue, { query: { sessionId } }),
    }),
  completed: (sessionId: number) =>
    queryOptions({
      queryKey: queueKeys.completed(sessionId),
      queryFn: () => api(routes.listQueue, { query: { sessionId, status: 'completed' } }),
    }),
};

const failure = (title: string, error: unknown) =>
  notifications.show({ color: 'red', title, message: errorMessage(error) });

/** A completion's body part once the staff answered "Complete anyway" (nothing otherwise). */
export const confirmedBody = (confirmUnreleased: boolean | undefined) =>
  confirmUnreleased ? { confirmUnreleased: true } : {};

/**
 * Puts an entry a call answered into the session's cached lists (the live
 * event may have come first; versions keep the newer copy), unless the
 * visit has already ended.
 */
const useApplyEntry = () => {
  const queryClient = useQueryClient();
  const sync = useLiveSync();
  return (entry: QueueEntry) => {
    const left = entry.status === 'completed' || sync.hasEnded(entry.sessionId, entry.id);
    queryClient.setQueryData<QueueEntry[]>(queueKeys.active(entry.sessionId), (list) =>
      list ? withEntry(list, entry, left) : list,
    );
  };
};

/**
 * Undo of a removal or pickup: sends the inverse (`restore`) and puts the
 * entry the server answers back into this screen's lists (the live event
 * does the same on every other screen). Without a connection the restore
 * waits in the outbox behind the change it undoes (null), and is sent after it.
 */
export const useRestoreEntry = () => {
  const queryClient = useQueryClient();
  const sync = useLiveSync();
  return async (entryId: string, vehicle: string) => {
    const entry = await sendOrKeep(
      'restoreQueueEntry',
      { params: { id: entryId } },
      { vehicle, action: 'undo' },
    );
    if (!entry) return null;
    sync.restored(entry.sessionId, entry.id);
    queryClient.setQueryData<QueueEntry[]>(queueKeys.active(entry.sessionId), (list) =>
      list ? withEntry(list, entry, false) : list,
    );
    queryClient.setQueryData<QueueEntry[]>(queueKeys.completed(entry.sessionId), (list) =>
      list?.filter((item) => item.id !== entry.id),
    );
    return entry;
  };
};

/** Queues a vehicle by number and type; the answer (with its position) joins the list at once. */
export const useAddToQueue = () => {
  const apply = useApplyEntry();
  return useMutation({
    // The outbox keeps what cannot be sent now: never paused by TanStack Query's offline mode.
    networkMode: 'always',
    mutationFn: (input: AddVehicleInput) =>
      sendOrKeep(
        'addToQueue',
        { body: input },
        { vehicle: vehicleName(input.vehicleType ?? 'car', input.vehicleNumber), action: 'add' },
      ),
    // null: no connection, the add waits in the outbox (the header counts it).
    onSuccess: (entry) => (entry ? apply(entry) : undefined),
    // A car whose children all go home another way today is a question for the add card, not a failure.
    onError: (error) => (notComingOf(error) ? undefined : failure('Failed to add vehicle', error)),
  });
};

/**
 * Removes an entry (child picked up, vehicle left, removed, swiped away,
 * dismissed from overflow). The removal is sent at once and the card leaves;
 * the toast's Undo (10 s) puts it back. A failure reads the queue again,
 * which brings the card back.
 */
type Removal = Pick<QueueEntry, 'id' | 'vehicleType' | 'vehicleNumber'> & {
  reason?: RemovalReason;
  /** The staff answered "Complete anyway" for children no teacher released. */
  confirmUnreleased?: boolean;
};

export const useRemoveFromQueue = () => {
  const queryClient = useQueryClient();
  const restore = useRestoreEntry();
  const mutation = useMutation({
    // The outbox keeps what cannot be sent now: never paused by TanStack Query's offline mode.
    networkMode: 'always',
    mutationFn: (entry: Removal) =>
      sendOrKeep(
        'removeFromQueue',
        {
          params: { id: entry.id },
          body: { reason: entry.reason ?? 'removed', ...confirmedBody(entry.confirmUnreleased) },
        },
        { vehicle: vehicleName(entry.vehicleType, entry.vehicleNumber), action: entry.reason ?? 'removed' },
      ),
    onSuccess: (_, entry) =>
      queryClient.setQueriesData<QueueEntry[]>({ queryKey: queueKeys.all }, (entries) =>
        entries?.filter((item) => item.id !== entry.id),
      ),
    onError: (error, entry) => {
      void queryClient.invalidateQueries({ queryKey: queueKeys.all });
      // A child no teacher released: ask first, and complete only if the staff say so.
      const asked = unreleasedOf(error);
      if (asked) askUnreleased({ ...asked, confirm: () => remove(entry, entry.reason, true) });
      else failure('Failed to remove vehicle', error);
    },
  });
  const askFirst = useAskFirst();
  /** `reason`: what the staff saw happen (picked up, left); a swipe or a dismissal is `removed`. */
  const remove = (
    entry: Pick<QueueEntry, 'id' | 'vehicleType' | 'vehicleNumber'>,
    reason: RemovalReason = 'removed',
    confirmUnreleased = false,
  ) =>
    withUndo(
      entry.id,
      {
        title: 'Vehicle removed from queue',
        vehicle: vehicleName(entry.vehicleType, entry.vehicleNumber),
        message: 'The vehicle has been removed from the pickup queue',
      },
      () =>
        mutation.mutateAsync({
          id: entry.id,
          vehicleType: entry.vehicleType,
          vehicleNumber: entry.vehicleNumber,
          reason,
          confirmUnreleased,
        }),
      () => restore(entry.id, vehicleName(entry.vehicleType, entry.vehicleNumber)),
    );
  return {
    isPending: mutation.isPending,
    /** A pickup asks first while a child of the car (when the screen knows them) was not released. */
    mutate: (entry: Completing, reason: RemovalReason = 'removed') =>
      reason === 'picked_up'
        ? askFirst([entry], (confirmUnreleased) => remove(entry, reason, confirmUnreleased))
        : remove(entry, reason),
  };
};

/**
 * Changes an entry's status, e.g. `completed` from the vehicle dialog, at
 * once; a completed pickup's toast offers Undo for 10 s (the inverse is sent).
 */
interface StatusChange {
  entry: QueueEntry;
  status: QueueStatus;
  /** The staff answered "Complete anyway" for children no teacher released. */
  confirmUnreleased?: boolean;
}

export const useSetQueueStatus = () => {
  const apply = useApplyEntry();
  const restore = useRestoreEntry();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    // The outbox keeps what cannot be sent now: never paused by TanStack Query's offline mode.
    networkMode: 'always',
    mutationFn: ({ entry, status, confirmUnreleased }: StatusChange) =>
      sendOrKeep(
        'setQueueStatus',
        { params: { id: entry.id }, body: { status, ...confirmedBody(confirmUnreleased) } },
        { vehicle: vehicleName(entry.vehicleType, entry.vehicleNumber), action: status },
      ),
    onSuccess: (updated, { entry, status }) => {
      // null: the change waits in the outbox; the card shows it as if made.
      apply(
        updated ?? { ...entry, status, exitTime: status === 'completed' ? new Date().toISOString() : null },
      );
      if (status !== 'completed') {
        notifications.show({
          title: 'Queue status updated',
          message: `${vehicleName(entry.vehicleType, entry.vehicleNumber)}: ${status}`,
        });
      }
    },
    onError: (error, change) => {
      // A child no teacher released: ask first, and complete only if the staff say so.
      const asked = unreleasedOf(error);
      if (!asked) return failure('Failed to update status', error);
      void queryClient.invalidateQueries({ queryKey: queueKeys.all });
      askUnreleased({ ...asked, confirm: () => setStatus({ ...change, confirmUnreleased: true }) });
    },
  });
  const setStatus = (change: StatusChange) =>
    change.status === 'completed'
      ? withUndo(
          change.entry.id,
          {
            title: 'Queue status updated',
            vehicle: vehicleName(change.entry.vehicleType, change.entry.vehicleNumber),
            message: 'Pickup completed',
          },
          () => mutation.mutateAsync(change),
          () => restore(change.entry.id, vehicleName(change.entry.vehicleType, change.entry.vehicleNumber)),
        )
      : mutation.mutate(change);
  const askFirst = useAskFirst();
  return {
    isPending: mutation.isPending,
    /** A completion asks first while a child of the car was not released (as the screen knows it). */
    mutate: (change: StatusChange) =>
      change.status === 'completed'
        ? askFirst([change.entry], (confirmUnreleased) => setStatus({ ...change, confirmUnreleased }))
        : setStatus(change),
  };
};
