import { routes } from '@curbside/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { ACTIVE_SESSION_KEY, SESSIONS_KEY } from '../../lib/query-keys';
import { useMe } from '../auth/auth.queries';

/** Pickup sessions. The active session is considered fresh for 60 s. */
export const sessionQueries = {
  all: SESSIONS_KEY,
  active: () =>
    queryOptions({
      queryKey: ACTIVE_SESSION_KEY,
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
  return { session: query.data ?? null, isLoading: query.isPending && query.fetchStatus !== 'idle' };
};
