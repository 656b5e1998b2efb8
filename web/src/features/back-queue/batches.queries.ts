import { routes } from '@curbside/api';
import type { Batch, QueueEntry, VehicleType } from '@curbside/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { useLiveInvalidate } from '../live/live';
import { QUEUE_EVENTS, queueQueries } from '../queue/queue.queries';

/**
 * Batches of a session. Loading batches and their vehicles live under
 * `['batches']` and are refreshed by every queue or batch change; a completed
 * batch never changes again, so its vehicles live under `['batch-history']`
 * and are fetched once.
 */
export const batchQueries = {
  all: ['batches'] as const,
  active: (sessionId: number) =>
    queryOptions({
      queryKey: [...batchQueries.all, sessionId, 'active'] as const,
      queryFn: () => api(routes.activeBatches, { query: { sessionId } }),
    }),
  completed: (sessionId: number) =>
    queryOptions({
      queryKey: [...batchQueries.all, sessionId, 'completed'] as const,
      queryFn: () => api(routes.listBatches, { query: { sessionId, status: 'completed' } }),
    }),
  history: ['batch-history'] as const,
  /** The entries of a batch; asked for only when its count is above 0. */
  vehicles: (batch: Pick<Batch, 'id' | 'status' | 'currentCount'>) =>
    queryOptions({
      queryKey:
        batch.status === 'completed'
          ? ([...batchQueries.history, batch.id] as const)
          : ([...batchQueries.all, 'vehicles', batch.id] as const),
      queryFn: () => api(routes.batchVehicles, { params: { id: batch.id } }),
      enabled: batch.currentCount > 0,
    }),
};

/**
 * Every queue or batch event (the server also sends QUEUE_STATUS_UPDATED after
 * batch changes and VEHICLES_REMOVED_FROM_QUEUE after a batch completes)
 * refreshes the batches, so every screen stays in step.
 */
export const useBatchesLive = () => useLiveInvalidate(QUEUE_EVENTS, [batchQueries.all]);

/** Batch failures are logged, never shown (specification §8). */
const logged = (what: string) => (error: unknown) => console.error(`${what} failed:`, error);

/** Where a vehicle goes when dropped out of its batch. */
export type DropTarget = 'queue' | 'overflow';

const useRefresh = () => {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: batchQueries.all }),
      queryClient.invalidateQueries({ queryKey: queueQueries.all }),
    ]);
};

/** Opens a new batch for a vehicle type; it starts loading at once. */
export const useCreateBatch = (sessionId: number, vehicleType: VehicleType) => {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: () => api(routes.createBatch, { body: { sessionId, vehicleType } }),
    onError: logged('Creating a batch'),
    onSettled: refresh,
  });
};

/** Add to batch: the server takes the first waiting, batch-less vehicle of the batch's type. */
export const useAddToBatch = () => {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (batch: Pick<Batch, 'id'>) => api(routes.addToBatch, { params: { id: batch.id } }),
    onError: logged('Adding to the batch'),
    onSettled: refresh,
  });
};

/** Complete Batch: completed with endTime now, then the queue is refreshed. */
export const useCompleteBatch = () => {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (batch: Pick<Batch, 'id'>) =>
      api(routes.updateBatch, {
        params: { id: batch.id },
        body: { status: 'completed', endTime: new Date().toISOString() },
      }),
    onError: logged('Completing the batch'),
    onSettled: refresh,
  });
};

interface Move {
  entryId: string;
  batchId: number;
  target: DropTarget;
}

/**
 * Moves a vehicle out of its batch, back to the queue (waiting) or to the
 * overflow area. The chip leaves its batch at once; a failure is logged and
 * the refetch puts it back.
 */
export const useMoveOutOfBatch = (sessionId: number) => {
  const queryClient = useQueryClient();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ entryId, target }: Move) =>
      api(routes.updateQueueEntry, {
        params: { id: entryId },
        body: { batchId: null, status: target === 'overflow' ? 'overflow' : 'waiting' },
      }),
    onMutate: async ({ entryId, batchId, target }) => {
      await Promise.all([
        queryClient.cancelQueries({ queryKey: batchQueries.all }),
        queryClient.cancelQueries({ queryKey: queueQueries.all }),
      ]);
      queryClient.setQueryData<QueueEntry[]>(
        batchQueries.vehicles({ id: batchId, status: 'loading', currentCount: 1 }).queryKey,
        (list) => list?.filter((entry) => entry.id !== entryId),
      );
      queryClient.setQueryData<Batch[]>(batchQueries.active(sessionId).queryKey, (list) =>
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
    onError: logged('Dropping the vehicle'),
    onSettled: refresh,
  });
};
