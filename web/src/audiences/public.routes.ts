import type { RouteObject } from 'react-router';

/**
 * Screens on shared devices, opened from a school's private link (`?t=`) rather than a sign-in
 * (ADR 0026): the bus driver's page, the bus map and the hallway display. Each keeps its own
 * connection (its link's); nothing of the staff or parent audiences loads. A new screen of that
 * kind is an entry here.
 */
export const publicRoutes: RouteObject = {
  children: [
    {
      path: 'bus-driver',
      lazy: { Component: async () => (await import('../features/buses/bus-driver.page')).BusDriverPage },
    },
    {
      path: 'bus-tracking',
      lazy: { Component: async () => (await import('../features/buses/bus-tracking.page')).BusTrackingPage },
    },
    {
      path: 'display',
      lazy: { Component: async () => (await import('../features/display/display.page')).DisplayPage },
    },
  ],
};
