import { routes } from '@curbside/api';
import type { Arrival } from '@curbside/domain';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { useLiveEvent } from '../live/live';

/** Families' arrivals of a running session (issue 53), newest first. */
export const arrivalQueries = {
  all: ['arrivals'] as const,
  list: (sessionId: number) =>
    queryOptions({
      queryKey: [...arrivalQueries.all, sessionId] as const,
      queryFn: () => api(routes.listArrivals, { query: { sessionId } }),
      select: (answer: { arrivals: Arrival[] }) => answer.arrivals,
    }),
};

/** An arrival put in a session's list (replacing its earlier state), the list kept newest first. */
export const withArrival = (list: readonly Arrival[], arrival: Arrival): Arrival[] =>
  [arrival, ...list.filter((other) => other.id !== arrival.id)].sort((a, b) =>
    b.updatedAt.localeCompare(a.updatedAt),
  );

/** Keeps the session's arrivals current from `ARRIVAL_ANNOUNCED` while the screen is open. */
export const useArrivalsFollowLive = (sessionId: number) => {
  const queryClient = useQueryClient();
  useLiveEvent('ARRIVAL_ANNOUNCED', ({ data }) => {
    if (data.arrival.sessionId !== sessionId) return;
    const key = arrivalQueries.list(sessionId).queryKey;
    if (!queryClient.getQueryData(key)) {
      void queryClient.invalidateQueries({ queryKey: key });
      return;
    }
    queryClient.setQueryData(key, (current) =>
      current ? { arrivals: withArrival(current.arrivals, data.arrival) } : current,
    );
  });
};

/**
 * Each child's family's announcement in the session (the latest), for the
 * teacher's rows: "Parent arriving" / "Parent here".
 */
export const useArrivalByStudent = (sessionId: number): ReadonlyMap<number, Arrival['state']> => {
  const arrivals = useQuery(arrivalQueries.list(sessionId));
  useArrivalsFollowLive(sessionId);
  const byStudent = new Map<number, Arrival['state']>();
  // Oldest first, so a child's latest announcement wins.
  for (const arrival of [...(arrivals.data ?? [])].reverse()) {
    for (const id of arrival.studentIds) byStudent.set(id, arrival.state);
  }
  return byStudent;
};
