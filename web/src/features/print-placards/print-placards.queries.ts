import { routes } from '@curbside/api';
import type { Vehicle } from '@curbside/domain';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { rosterQueries, type SchoolScope } from '../rosters/rosters.queries';

/** Every active vehicle of the school, read page by page. */
export const placardQueries = {
  vehicles: (schoolId: SchoolScope) =>
    queryOptions({
      queryKey: [...rosterQueries.all, 'vehicles', 'all', schoolId ?? 'own'] as const,
      queryFn: async (): Promise<Vehicle[]> => {
        const vehicles: Vehicle[] = [];
        let cursor: string | undefined;
        do {
          const page = await api(routes.listVehicles, { query: { schoolId, cursor, limit: 100 } });
          vehicles.push(...page.items);
          cursor = page.next ?? undefined;
        } while (cursor);
        return vehicles;
      },
    }),
};
