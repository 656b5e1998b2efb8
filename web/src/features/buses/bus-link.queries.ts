import { routes } from '@curbside/api';
import { queryOptions } from '@tanstack/react-query';
import { apiWithLink } from '../../lib/api';
import { HttpError } from '../../lib/http';

/** A link the office replaced answers 401: asking again would not help; other failures are tried 3 times. */
const retryUnlessReplaced = (count: number, error: Error) =>
  !(error instanceof HttpError && error.status === 401) && count < 3;

/** What the bus driver's page reads with its driver link (`token`; nothing without one). */
export const busLinkQueries = {
  /** The school's buses, to choose one. */
  fleet: (token: string | null) =>
    queryOptions({
      queryKey: ['bus-fleet', token] as const,
      queryFn: () => apiWithLink(token as string, routes.busFleet),
      enabled: token !== null,
      retry: retryUnlessReplaced,
    }),
  /** The school's phone, to call when an alert cannot be sent (issue 50). */
  contact: (token: string | null) =>
    queryOptions({
      queryKey: ['bus-contact', token] as const,
      queryFn: () => apiWithLink(token as string, routes.busContact),
      enabled: token !== null,
      retry: retryUnlessReplaced,
    }),
};
