import { Center, Loader } from '@mantine/core';
import { useNotifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { parentRoutes } from './audiences/parent.routes';
import { publicRoutes } from './audiences/public.routes';
import { signInRoutes } from './audiences/sign-in.routes';
import { staffRoutes } from './audiences/staff.routes';
import { loadToasts } from './components/toasts-loader';
import { AppThemeProvider } from './features/theme/theme-provider';
import { appQueryClient } from './lib/query-client';
import { answersBeforeAnnouncements, placeToasts, referencesOnErrorToasts } from './lib/toasts';

/**
 * The toasts' container (with its transitions, about 10 KB gzip): not needed to draw a screen,
 * so it loads with the first toast, which waits in the store meanwhile (`placeToasts`).
 */
const Toasts = lazy(async () => ({ default: (await loadToasts()).Toasts }));

function ToastsOnceShown() {
  const shown = useRef(false);
  if (useNotifications().notifications.length > 0) shown.current = true;
  return shown.current ? (
    <Suspense fallback={null}>
      <Toasts />
    </Suspense>
  ) : null;
}

/** Shown while a page's code is loading. */
function PageLoader() {
  return (
    <Center mih="100dvh">
      <Loader size="xl" aria-label="Loading" />
    </Center>
  );
}

/**
 * Every screen of the app (specification §2), by audience (`./audiences`, ADR 0026): the
 * sign-in, the staff's screens, the parent portal, and the screens on shared devices. Pages load lazily
 * (`lazy.Component`), each audience's own code with its routes, so the first load carries only
 * this file, the router and the providers below, and a page loads its audience's code alone.
 */
export const appRoutes: RouteObject[] = [
  {
    Component: Outlet,
    HydrateFallback: PageLoader,
    children: [
      signInRoutes,
      staffRoutes,
      parentRoutes,
      publicRoutes,
      {
        path: '*',
        lazy: { Component: async () => (await import('./features/not-found/not-found.page')).NotFoundPage },
      },
    ],
  },
];

const router = createBrowserRouter(appRoutes);

/**
 * Theme (from the stored preference) → toasts (`components/toasts.tsx`) → data → router (the
 * live connection is the staff screens' and the parent dashboard's: `LiveLayout`). Alerts are
 * not toasts: they have their own banner on the car-line screens.
 */
export function App() {
  useEffect(() => {
    placeToasts();
    return answersBeforeAnnouncements();
  }, []);
  useEffect(() => referencesOnErrorToasts(), []);
  return (
    <AppThemeProvider>
      <ToastsOnceShown />
      <QueryClientProvider client={appQueryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </AppThemeProvider>
  );
}
