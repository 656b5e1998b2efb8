import { routes } from '@curbside/api';
import { queryOptions } from '@tanstack/react-query';
import { apiWithLink } from '../../lib/api';
import { HttpError } from '../../lib/http';

/** A refused link (401) is not asked again; anything else is, up to three times. */
const retryUnlessRefused = (count: number, error: Error) =>
  !(error instanceof HttpError && error.status === 401) && count < 3;

/**
 * The bus driver page's reads, with the driver link's token (`/bus-driver?t=…`): the school's
 * buses to choose from, and the school's phone. The driver's own factory, not a staff one: the
 * page loads no staff code (`test/browser/audiences.test.ts`).
 */
export const driverQueries = {
  all: ['bus-driver'] as const,
  fleet: (token: string | null) =>
    queryOptions({
      queryKey: [...driverQueries.all, 'fleet', token] as const,
      queryFn: () => apiWithLink(token as string, routes.busFleet),
      enabled: token !== null,
      retry: retryUnlessRefused,
    }),
  contact: (token: string | null) =>
    queryOptions({
      queryKey: [...driverQueries.all, 'contact', token] as const,
      queryFn: () => apiWithLink(token as string, routes.busContact),
      enabled: token !== null,
      retry: retryUnlessRefused,
    }),
};
