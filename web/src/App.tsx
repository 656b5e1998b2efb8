import { Center, Loader, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { createQueryClient } from './lib/query-client';
import { theme } from './lib/theme';

/** Shown while a page's code is loading. */
function PageLoader() {
  return (
    <Center mih="100dvh">
      <Loader size="xl" aria-label="Loading" />
    </Center>
  );
}

/**
 * Every screen of the app. Pages load lazily (`lazy.Component`), so each
 * screen's code is its own chunk and the first load carries only the shell.
 */
export const appRoutes: RouteObject[] = [
  {
    Component: Outlet,
    HydrateFallback: PageLoader,
    children: [
      {
        index: true,
        lazy: { Component: async () => (await import('./features/home/home.page')).HomePage },
      },
      {
        path: '*',
        lazy: { Component: async () => (await import('./features/not-found/not-found.page')).NotFoundPage },
      },
    ],
  },
];

const router = createBrowserRouter(appRoutes);

/** `<Notifications>` follows the specification: one toast at a time, 5 s, at most 420 px wide. */
export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <Notifications limit={1} autoClose={5000} containerWidth={420} position="top-center" />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
