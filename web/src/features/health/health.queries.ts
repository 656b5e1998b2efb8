import { routes } from '@curbside/api';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api';

/**
 * Query options for the server's health check. Every feature keeps its keys
 * in one factory like this: `all` is the prefix that mutations and live
 * events invalidate, the functions below it build the full keys.
 */
export const healthQueries = {
  all: ['health'] as const,
  status: () =>
    queryOptions({
      queryKey: [...healthQueries.all, 'status'] as const,
      queryFn: () => api(routes.health),
    }),
};
