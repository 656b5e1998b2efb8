import { routes } from '@curbside/api';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api';

/** The parent status poll (specification §9: every 30 s). */
export const PARENT_STATUS_POLL_MS = 30_000;

export const parentQueries = {
  all: ['parent'] as const,
  students: () =>
    queryOptions({
      queryKey: [...parentQueries.all, 'students'] as const,
      queryFn: () => api(routes.parentStudents),
    }),
  status: () =>
    queryOptions({
      queryKey: [...parentQueries.all, 'status'] as const,
      queryFn: () => api(routes.parentStudentStatus),
      refetchInterval: PARENT_STATUS_POLL_MS,
    }),
  invite: (code: string) =>
    queryOptions({
      queryKey: [...parentQueries.all, 'invite', code] as const,
      queryFn: () => api(routes.lookupPickupCode, { params: { code } }),
    }),
};
