import { routes } from '@curbside/api';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api';

/** Schools: one school's record (the header reads `sandbox` from it). */
export const schoolQueries = {
  all: ['schools'] as const,
  detail: (id: number) =>
    queryOptions({
      queryKey: [...schoolQueries.all, 'detail', id] as const,
      queryFn: () => api(routes.getSchool, { params: { id } }),
    }),
};
