import { routes } from '@curbside/api';
import type { User } from '@curbside/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { HttpError } from '../../lib/http';

/** The current user: fetched on load; a 401 means nobody is signed in (null). */
export const authQueries = {
  all: ['auth'] as const,
  me: () =>
    queryOptions({
      queryKey: [...authQueries.all, 'me'] as const,
      queryFn: async (): Promise<User | null> => {
        try {
          return await api(routes.me);
        } catch (error) {
          if (error instanceof HttpError && error.status === 401) return null;
          throw error;
        }
      },
    }),
};

/** `{ user, isLoading }`: user is null when signed out. */
export const useMe = () => {
  const query = useQuery(authQueries.me());
  return { user: query.data ?? null, isLoading: query.isPending, error: query.error };
};
