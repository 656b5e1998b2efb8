import { type Arrival, type ArrivalOpening, arrivalInputSchema, type ParentArrival } from '@curbside/domain';
import { areaRoutes, returns, route } from '../route';
import { sessionQuery } from './shared';

/**
 * Families' arrivals (issue 53): a parent announces "on the way" or "here";
 * the school's staff read them (a screen that opens or reconnects; the live
 * event `ARRIVAL_ANNOUNCED` keeps it current). Part of running a dismissal:
 * with `auto`, an announcement queues the family's car.
 */
export const arrivalRoutes = areaRoutes('carLine', {
  announceArrival: route({
    method: 'POST',
    path: '/api/parent/arrivals',
    request: { body: arrivalInputSchema },
    access: 'parent',
    response: returns<{ arrival: ParentArrival }>(),
  }),
  parentArrivals: route({
    method: 'GET',
    path: '/api/parent/arrivals',
    request: {},
    access: 'parent',
    response: returns<{ schools: ArrivalOpening[] }>(),
  }),
  listArrivals: route({
    method: 'GET',
    path: '/api/arrivals',
    request: { query: sessionQuery },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<{ arrivals: Arrival[] }>(),
  }),
});
