import { routes } from '@curbside/api';
import { type Batch, type QueueEntry, type VehicleType, vehicleName } from '@curbside/domain';
import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { withNewer, without } from '../live/changes';
import { useLivePatches } from '../live/live';
import { queuePatches } from '../queue/queue.cache';
import { confirmedBody, queueQueries } from '../queue/queue.queries';
import { unreleasedOf } from '../queue/unreleased';
import { askUnreleased, useAskFirst } from '../queue/unreleased-question';
import { sendOrKeep } from '../queue/use-outbox';
import { batchKeys, batchPatches } from './batches.cache';

/**
 * Batches of a session (kept current by `batchPatches`). A completed batch's
 * vehicles never change again, so they are fetched once.
 */
export const batchQueries = {
  all: batchKeys.all,
  done: batchKeys.done,
  history: batchKeys.history,
  active: (sessionId: number) =>
    queryOptions({
      queryKey: batchKeys.active(sessionId),
      queryFn: () => api(routes.activeBatches, { query: { sessionId } }),
    }),
  completed: (sessionId: number) =>
    queryOptions({
      queryKey: batchKeys.completed(sessionId),
      queryFn: () => api(routes.listBatches, { query: { sessionId, status: 'completed' } }),
    }),
  /** The entries of a batch; asked for only when its count is above 0. */
  vehicles: (batch: Pick<Batch, 'id' | 'status' | 'currentCount'>) =>
    queryOptions({
      queryKey: batch.status === 'completed' ? batchKeys.historyOf(batch.id) : batchKeys.vehicles(batch.id),
      queryFn: () => api(routes.batchVehicles, { params: { id: batch.id } }),
      enabled: batch.currentCount > 0,
    }),
};

/**
 * Keeps the back queue's batches, their vehicles and the queue current from
 * the live events: each event carries the batch and entries it changed, and
 * they are patched into the cached lists, never read again per event.
 */
export const useBatchesLive = () => {
  useLivePatches(batchPatches);
  useLivePatches(queuePatches);
};

/** Batch failures are logged, never shown (specification §8). */
const logged = (what: string) => (error: unknown) => console.error(`${what} failed:`, error);

/** Where a vehicle goes when dropped out of its batch. */
export type DropTarget = 'queue' | 'overflow';

/** After a failure: read the batches and the queue again, which undoes what was shown ahead of the answer. */
const useRecover = () => {
  const queryClient = useQueryClient();
  return (what: string) => (error: unknown) => {
    logged(what)(error);
    for (const queryKey of [batchKeys.all, batchKeys.done, queueQueries.all]) {
      void queryClient.invalidateQueries({ queryKey });
    }
  };
};

/** Puts a batch a call answered into the cached loading batches (or moves it to the completed ones). */
const useApplyBatch = () => {
  const queryClient = useQueryClient();
  return (batch: Batch) => {
    queryClient.setQueryData<Batch[]>(batchKeys.active(batch.sessionId), (list) =>
      list ? (batch.status === 'loading' ? withNewer(list, batch) : without(list, batch.id)) : list,
    );
    if (batch.status === 'completed') {
      queryClient.setQueryData<Batch[]>(batchKeys.completed(batch.sessionId), (list) =>
        list && !list.some((item) => item.id === batch.id) ? [...list, batch] : list,
      );
    }
  };
};

/**
 * Opens a new batch for a vehicle type, filled at once with the next waiting
 * vehicles of that type up to its capacity (one tap, one server call); the
 * vehicles' moves arrive as live events.
 */
export const useCreateBatch = (sessionId: number, vehicleType: VehicleType) => {
  const apply = useApplyBatch();
  const recover = useRecover();
  return useMutation({
    networkMode: 'always',
    mutationFn: () =>
      sendOrKeep(
        'createBatch',
        { body: { sessionId, vehicleType, fill: true } },
        { vehicle: vehicleType === 'bus' ? 'New bus batch' : 'New car batch', action: 'create batch' },
      ),
    // null: no connection, the change waits in the outbox (the screen shows it).
    onSuccess: (batch) => (batch ? apply(batch) : undefined),
    onError: recover('Creating a batch'),
  });
};

/** Add to batch: the server takes the first waiting, batch-less vehicle of the batch's type. */
export const useAddToBatch = () => {
  const apply = useApplyBatch();
  const recover = useRecover();
  return useMutation({
    networkMode: 'always',
    mutationFn: (batch: Pick<Batch, 'id' | 'batchNumber'>) =>
      sendOrKeep(
        'addToBatch',
        { params: { id: batch.id } },
        { vehicle: `Batch #${batch.batchNumber}`, action: 'add to batch' },
      ),
    onSuccess: (batch) => (batch ? apply(batch) : undefined),
    onError: recover('Adding to the batch'),
  });
};

/**
 * Complete Batch: completed with endTime now; its vehicles leave the queue
 * with the live event. A child in it no teacher released: the screen asks
 * first ("… Complete anyway?") and completes only if the staff say so.
 */
export const useCompleteBatch = () => {
  const apply = useApplyBatch();
  const recover = useRecover();
  const queryClient = useQueryClient();
  const askFirst = useAskFirst();
  const mutation = useMutation({
    networkMode: 'always',
    mutationFn: (batch: Pick<Batch, 'id' | 'batchNumber'> & { confirmUnreleased?: boolean }) =>
      sendOrKeep(
        'updateBatch',
        {
          params: { id: batch.id },
          body: {
            status: 'completed',
            endTime: new Date().toISOString(),
            ...confirmedBody(batch.confirmUnreleased),
          },
        },
        { vehicle: `Batch #${batch.batchNumber}`, action: 'complete batch' },
      ),
    onSuccess: (batch) => (batch ? apply(batch) : undefined),
    onError: (error, batch) => {
      const asked = unreleasedOf(error);
      if (asked)
        askUnreleased({ ...asked, confirm: () => mutation.mutate({ ...batch, confirmUnreleased: true }) });
      else recover('Completing the batch')(error);
    },
  });
  return {
    isPending: mutation.isPending,
    /** Asks first while a child of its vehicles (as the batch card shows them) was not released. */
    mutate: (batch: Pick<Batch, 'id' | 'batchNumber'>) =>
      askFirst(queryClient.getQueryData<QueueEntry[]>(batchKeys.vehicles(batch.id)), (confirmUnreleased) =>
        mutation.mutate({ ...batch, confirmUnreleased }),
      ),
  };
};

/** "Car 120" for a queued entry this screen holds (from any cached list of the queue or a batch). */
const nameOf = (queryClient: QueryClient, entryId: string): string => {
  for (const queryKey of [queueQueries.all, batchKeys.all]) {
    for (const [, list] of queryClient.getQueriesData<unknown>({ queryKey })) {
      if (!Array.isArray(list)) continue;
      const entry = (list as Partial<QueueEntry>[]).find((item) => item.id === entryId);
      if (entry?.vehicleType && entry.vehicleNumber)
        return vehicleName(entry.vehicleType, entry.vehicleNumber);
    }
  }
  return 'A vehicle';
};

interface Move {
  entryId: string;
  batchId: number;
  target: DropTarget;
}

/**
 * Moves a vehicle out of its batch, back to the queue (waiting) or to the
 * overflow area. The chip leaves its batch at once; a failure is logged and
 * the lists are read again, which puts it back.
 */
export const useMoveOutOfBatch = (sessionId: number) => {
  const queryClient = useQueryClient();
  const recover = useRecover();
  return useMutation({
    networkMode: 'always',
    mutationFn: ({ entryId, target }: Move) =>
      sendOrKeep(
        'updateQueueEntry',
        {
          params: { id: entryId },
          body: { batchId: null, status: target === 'overflow' ? 'overflow' : 'waiting' },
        },
        {
          vehicle: nameOf(queryClient, entryId),
          action: target === 'overflow' ? 'to overflow' : 'back to queue',
        },
      ),
    onMutate: async ({ entryId, batchId, target }) => {
      await Promise.all([
        queryClient.cancelQueries({ queryKey: batchKeys.all }),
        queryClient.cancelQueries({ queryKey: queueQueries.all }),
      ]);
      queryClient.setQueryData<QueueEntry[]>(batchKeys.vehicles(batchId), (list) =>
        list?.filter((entry) => entry.id !== entryId),
      );
      queryClient.setQueryData<Batch[]>(batchKeys.active(sessionId), (list) =>
        list?.map((batch) =>
          batch.id === batchId ? { ...batch, currentCount: Math.max(0, batch.currentCount - 1) } : batch,
        ),
      );
      queryClient.setQueriesData<QueueEntry[]>({ queryKey: queueQueries.all }, (list) =>
        list?.map((entry) =>
          entry.id === entryId
            ? {
                ...entry,
                batchId: null,
                batchNumber: null,
                status: target === 'overflow' ? 'overflow' : 'waiting',
              }
            : entry,
        ),
      );
    },
    onError: recover('Dropping the vehicle'),
  });
};
