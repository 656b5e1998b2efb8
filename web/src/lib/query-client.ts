import { QueryClient, timeoutManager } from '@tanstack/react-query';
import { oneTimer } from './one-timer';

// Its timeouts (each query's gcTime, each reader's staleTime) on one browser timer (issue 57).
timeoutManager.setTimeoutProvider(oneTimer());

/**
 * The specification's defaults: data does not refetch on a timer or on window
 * focus, never goes stale, and neither queries nor mutations are retried.
 * Screens that poll (queue status, alerts, parent status) set `refetchInterval`
 * on their own query.
 */
export const createQueryClient = () =>
  new QueryClient({
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        refetchInterval: false,
        staleTime: Number.POSITIVE_INFINITY,
        retry: false,
      },
      mutations: { retry: false },
    },
  });

/** The page's data cache (`App` provides it; routes start reads in it before a screen draws). */
export const appQueryClient = createQueryClient();
