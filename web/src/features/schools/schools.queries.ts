import { routes } from '@curbside/api';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api';

/**
 * Schools: one school's record, and the district it belongs to (the header's
 * SANDBOX badge shows when either is in sandbox mode).
 */
export const schoolQueries = {
  all: ['schools'] as const,
  detail: (id: number) =>
    queryOptions({
      queryKey: [...schoolQueries.all, 'detail', id] as const,
      queryFn: () => api(routes.getSchool, { params: { id } }),
    }),
  district: (id: number) =>
    queryOptions({
      queryKey: [...schoolQueries.all, 'district', id] as const,
      queryFn: () => api(routes.getDistrict, { params: { id } }),
    }),
};
