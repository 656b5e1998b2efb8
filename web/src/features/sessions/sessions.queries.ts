import { routes } from '@curbside/api';
import type { PickupSession } from '@curbside/domain';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { ACTIVE_SESSION_KEY, SESSIONS_KEY } from '../../lib/query-keys';
import { useMe } from '../auth/auth.queries';
import { useLiveEvent } from '../live/live';

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
  const queryClient = useQueryClient();
  const query = useQuery({
    ...sessionQueries.active(),
    enabled: user !== null && user.role !== 'parent',
    // What this returns changes with the answer and, until the first answer, with whether it is
    // being read: a read again (the live connection's first opening reads every list again) changes
    // neither, and no longer draws every reader again, twice, at once (the staff shell; h57u).
    notifyOnChangeProps: () =>
      queryClient.getQueryState(ACTIVE_SESSION_KEY)?.status === 'pending'
        ? ['data', 'isPending', 'fetchStatus']
        : ['data', 'isPending'],
  });
  return {
    session: query.data ?? null,
    isLoading: query.isPending && query.fetchStatus !== 'idle',
    /** Its first read is on its way (not waiting for a connection: offline, a screen shows what it can). */
    isReading: query.isPending && query.fetchStatus === 'fetching',
  };
};

/**
 * Keeps every staff screen on the school's running session without a reload
 * (issue 50): a session started or ended anywhere (another tablet, the office,
 * the schedule at its end time) arrives on the live connection, and the
 * screens switch at once (at its end time the header's pill reads it again,
 * before the schedule's event). After a lost connection every query is read
 * again (`LiveProvider`), this one too. Mounted once, by the staff shell.
 */
export const useSessionLive = () => {
  const queryClient = useQueryClient();
  const key = sessionQueries.active().queryKey;
  useLiveEvent(['SESSION_STARTED', 'SESSION_ENDED'], (event) => {
    const { session: changed } = event.data;
    queryClient.setQueryData<PickupSession | null>(key, (current) =>
      event.type === 'SESSION_STARTED' ? changed : current?.id === changed.id ? null : current,
    );
    // A read in flight may have been answered before the change: it is read again.
    if (queryClient.getQueryState(key)?.fetchStatus === 'fetching') {
      void queryClient.invalidateQueries({ queryKey: key, exact: true });
    }
    void queryClient.invalidateQueries({ queryKey: sessionQueries.list().queryKey, exact: true });
  });
};
