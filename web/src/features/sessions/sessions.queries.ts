import { routes } from '@curbside/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { useMe } from '../auth/auth.queries';

/** Pickup sessions. The active session is considered fresh for 60 s. */
export const sessionQueries = {
  all: ['sessions'] as const,
  active: () =>
    queryOptions({
      queryKey: [...sessionQueries.all, 'active'] as const,
      queryFn: () => api(routes.activeSession),
      staleTime: 60_000,
      retry: false,
    }),
  list: () =>
    queryOptions({
      queryKey: [...sessionQueries.all, 'list'] as const,
      queryFn: () => api(routes.listSessions),
    }),
};

/** The school's running session (null when none); only asked for signed-in staff. */
export const useActiveSession = () => {
  const { user } = useMe();
  const query = useQuery({
    ...sessionQueries.active(),
    enabled: user !== null && user.role !== 'parent',
  });
  return {
    session: query.data ?? null,
    isLoading: query.isPending && query.fetchStatus !== 'idle',
    /** Its first read is on its way (not waiting for a connection: offline, a screen shows what it can). */
    isReading: query.isPending && query.fetchStatus === 'fetching',
  };
};
