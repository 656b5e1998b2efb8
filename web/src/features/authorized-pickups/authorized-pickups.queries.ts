import { routes } from '@curbside/api';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api';

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
