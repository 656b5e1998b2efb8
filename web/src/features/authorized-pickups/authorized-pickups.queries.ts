import { routes } from '@curbside/api';
import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { useLiveEvent } from '../live/live';

/** A family's list changes rarely: a staff screen reads each child's once every few minutes. */
export const AUTHORIZED_PICKUPS_STALE_MS = 5 * 60_000;

export const authorizedPickupQueries = {
  all: ['authorized-pickups'] as const,
  student: (studentId: number) =>
    queryOptions({
      queryKey: [...authorizedPickupQueries.all, 'student', studentId] as const,
      queryFn: () => api(routes.studentAuthorizedPickups, { params: { id: studentId } }),
      staleTime: AUTHORIZED_PICKUPS_STALE_MS,
    }),
};

/**
 * Keeps every cached child's list current from the live connection (issue 50):
 * a parent's change reaches the open staff screens with the list as it is
 * now, and the cards and dialogs showing that child update at once.
 */
export const useAuthorizedPickupsLive = () => {
  const client = useQueryClient();
  useLiveEvent('AUTHORIZED_PICKUPS_CHANGED', ({ data: { schoolId: _, studentId, ...list } }) => {
    client.setQueryData(authorizedPickupQueries.student(studentId).queryKey, list);
  });
};
