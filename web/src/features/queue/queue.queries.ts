import { routes } from '@curbside/api';
import { type AddVehicleInput, type QueueEntry, type QueueStatus, vehicleName } from '@curbside/domain';
import { notifications } from '@mantine/notifications';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { errorMessage } from '../../lib/http';

/** The pickup queue of a session: active entries and completed pickups. */
export const queueQueries = {
  all: ['queue'] as const,
  active: (sessionId: number) =>
    queryOptions({
      queryKey: [...queueQueries.all, sessionId, 'active'] as const,
      queryFn: () => api(routes.listQueue, { query: { sessionId } }),
    }),
  completed: (sessionId: number) =>
    queryOptions({
      queryKey: [...queueQueries.all, sessionId, 'completed'] as const,
      queryFn: () => api(routes.listQueue, { query: { sessionId, status: 'completed' } }),
    }),
};

/** Live events after which every queue query is out of date. */
export const QUEUE_EVENTS = [
  'VEHICLE_QUEUED',
  'VEHICLE_REMOVED',
  'QUEUE_STATUS_UPDATED',
  'VEHICLES_REMOVED_FROM_QUEUE',
] as const;

const failure = (title: string, error: unknown) =>
  notifications.show({ color: 'red', title, message: errorMessage(error) });

/** Queues a vehicle by number and type. */
export const useAddToQueue = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AddVehicleInput) => api(routes.addToQueue, { body: input }),
    onError: (error) => failure('Failed to add vehicle', error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queueQueries.all }),
  });
};

/**
 * Removes an entry (child picked up, vehicle left, removed, swiped away). The
 * card disappears at once; a failure brings it back with the refetch.
 */
export const useRemoveFromQueue = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (entry: Pick<QueueEntry, 'id'>) => api(routes.removeFromQueue, { params: { id: entry.id } }),
    onMutate: async (entry) => {
      await queryClient.cancelQueries({ queryKey: queueQueries.all });
      queryClient.setQueriesData<QueueEntry[]>({ queryKey: queueQueries.all }, (entries) =>
        entries?.filter((item) => item.id !== entry.id),
      );
    },
    onSuccess: () =>
      notifications.show({
        title: 'Vehicle removed from queue',
        message: 'The vehicle has been removed from the pickup queue',
      }),
    onError: (error) => failure('Failed to remove vehicle', error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queueQueries.all }),
  });
};

/** Changes an entry's status, e.g. `completed` from the vehicle dialog. */
export const useSetQueueStatus = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ entry, status }: { entry: QueueEntry; status: QueueStatus }) =>
      api(routes.setQueueStatus, { params: { id: entry.id }, body: { status } }),
    onSuccess: (_, { entry, status }) =>
      notifications.show({
        title: 'Queue status updated',
        message: `${vehicleName(entry.vehicleType, entry.vehicleNumber)}: ${status === 'completed' ? 'pickup completed' : status}`,
      }),
    onError: (error) => failure('Failed to update status', error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queueQueries.all }),
  });
};
