import { routes } from '@curbside/api';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api';

/** The school's private links: the hallway display's and the bus tracking pair (map, driver). */
export const schoolLinkQueries = {
  display: () =>
    queryOptions({ queryKey: ['display-link'] as const, queryFn: () => api(routes.displayLink) }),
  bus: () => queryOptions({ queryKey: ['bus-links'] as const, queryFn: () => api(routes.busLinks) }),
};
