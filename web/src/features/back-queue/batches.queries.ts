import { routes } from '@curbside/api';
import type { Batch, QueueEntry, VehicleType } from '@curbside/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { useLiveInvalidate } from '../live/live';
import { queueQueries } from '../queue/queue.queries';

/**
 * Batches of a session, keyed by how often they change. Loading batches and
 * their vehicles (`['batches']`) change with the queue; the completed list
 * (`['completed-batches']`) only when a batch completes; a completed batch's
 * vehicles (`['batch-history']`) never change again, so they are fetched once.
 */
export const batchQueries = {
  all: ['batches'] as const,
  done: ['completed-batches'] as const,
  history: ['batch-history'] as const,
  active: (sessionId: number) =>
    queryOptions({
      queryKey: [...batchQueries.all, sessionId, 'active'] as const,
      queryFn: () => api(routes.activeBatches, { query: { sessionId } }),
    }),
  completed: (sessionId: number) =>
    queryOptions({
      queryKey: [...batchQueries.done, sessionId] as const,
      queryFn: () => api(routes.listBatches, { query: { sessionId, status: 'completed' } }),
    }),
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

/** Live events after which loading batches (counts, vehicles) may be out of date. */
export const BATCH_EVENTS = [
  'QUEUE_STATUS_UPDATED',
  'VEHICLE_REMOVED',
  'VEHICLES_REMOVED_FROM_QUEUE',
] as const;

/**
 * Keeps the batches of every screen in step: the server sends
 * QUEUE_STATUS_UPDATED after every batch change and VEHICLES_REMOVED_FROM_QUEUE
 * when a batch completes (a vehicle queued joins no batch, so VEHICLE_QUEUED
 * only refreshes the queue).
 */
export const useBatchesLive = () => {
  useLiveInvalidate(BATCH_EVENTS, [batchQueries.all]);
  useLiveInvalidate('VEHICLES_REMOVED_FROM_QUEUE', [batchQueries.done]);
};

/** Batch failures are logged, never shown (specification §8). */
const logged = (what: string) => (error: unknown) => console.error(`${what} failed:`, error);

/** Where a vehicle goes when dropped out of its batch. */
export type DropTarget = 'queue' | 'overflow';

/** Refreshes the loading batches and the queue (and the completed batches when one completed). */
const useRefresh = (completed = false) => {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      [batchQueries.all, queueQueries.all, ...(completed ? [batchQueries.done] : [])].map((queryKey) =>
        queryClient.invalidateQueries({ queryKey }),
      ),
    );
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
  const refresh = useRefresh(true);
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
