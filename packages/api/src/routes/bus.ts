import type { Bus, BusLinks, BusPosition, DisplayLink } from '@curbside/domain';
import { areaRoutes, returns, route } from '../route';

/** Buses: the school's private links, the driver page's buses, the map's positions. */
export const busRoutes = areaRoutes('bus', {
  // Buses: the school's private links, the driver page's buses, the map's positions
  busLinks: route({
    method: 'GET',
    path: '/api/bus-links',
    request: {},
    access: { minRole: 'school_admin' },
    response: returns<BusLinks>(),
  }),
  rotateBusLinks: route({
    method: 'POST',
    path: '/api/bus-links/rotate',
    request: {},
    access: { minRole: 'school_admin' },
    response: returns<BusLinks>(),
  }),
  // The hallway display's private link (issue 32): like the bus map's, school admins and above.
  displayLink: route({
    method: 'GET',
    path: '/api/display-link',
    request: {},
    access: { minRole: 'school_admin' },
    response: returns<DisplayLink>(),
  }),
  rotateDisplayLink: route({
    method: 'POST',
    path: '/api/display-link/rotate',
    request: {},
    access: { minRole: 'school_admin' },
    response: returns<DisplayLink>(),
  }),
  busFleet: route({
    method: 'GET',
    path: '/api/buses',
    request: {},
    access: { minRole: 'front_queue_wrangler', busLink: 'driver' },
    response: returns<Bus[]>(),
  }),
  // The driver page's way out when an alert cannot be sent (issue 50): the school's phone, nothing else.
  busContact: route({
    method: 'GET',
    path: '/api/buses/contact',
    request: {},
    access: { minRole: 'front_queue_wrangler', busLink: 'driver' },
    response: returns<{ schoolPhone: string | null }>(),
  }),
  busPositions: route({
    method: 'GET',
    path: '/api/buses/positions',
    request: {},
    access: { minRole: 'front_queue_wrangler', busLink: 'map' },
    response: returns<BusPosition[]>(),
  }),
});
