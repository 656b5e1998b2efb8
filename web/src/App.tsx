import type { StaffRole } from '@curbside/domain';
import { Center, Loader } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { type ComponentType, useEffect, useState } from 'react';
import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { LiveProvider } from './features/live/live';
import type { RouteAccess } from './features/shell/access';
import { AppThemeProvider } from './features/theme/theme-provider';
import { createQueryClient } from './lib/query-client';
import { answersBeforeAnnouncements } from './lib/toasts';

/** Shown while a page's code is loading. */
function PageLoader() {
  return (
    <Center mih="100dvh">
      <Loader size="xl" aria-label="Loading" />
    </Center>
  );
}

/** A parent screen: its code and the parent texts (English or Spanish) load together. */
const parentScreen = (Component: () => Promise<ComponentType>) => async (): Promise<ComponentType> => {
  const [screen] = await Promise.all([
    Component(),
    import('./features/parent/i18n').then(({ startParentTexts }) => startParentTexts()),
  ]);
  return screen;
};

/** A signed-in screen under the shell (header and footer), guarded by its minimum role. */
const staff = (path: string, minRole: StaffRole | undefined, Component: () => Promise<ComponentType>) => ({
  path,
  handle: (minRole ? { minRole } : {}) satisfies RouteAccess,
  lazy: { Component },
});

/** A public screen: no login guard, no staff header. */
const open = (path: string, Component: () => Promise<ComponentType>) => ({ path, lazy: { Component } });

/**
 * Every screen of the app (specification §2). Pages load lazily
 * (`lazy.Component`), so each screen's code is its own chunk and the first
 * load carries only the shell.
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
        path: 'login',
        lazy: { Component: async () => (await import('./features/auth/login.page')).LoginPage },
      },
      {
        lazy: { Component: async () => (await import('./features/shell/shell.layout')).ShellLayout },
        children: [
          staff(
            'front-queue',
            'front_queue_wrangler',
            async () => (await import('./features/front-queue/front-queue.page')).FrontQueuePage,
          ),
          staff(
            'back-queue',
            'back_queue_wrangler',
            async () => (await import('./features/back-queue/back-queue.page')).BackQueuePage,
          ),
          staff(
            'teacher',
            'teacher',
            async () => (await import('./features/teacher/teacher.page')).TeacherPage,
          ),
          staff(
            'school-admin',
            'school_admin',
            async () => (await import('./features/school-admin/school-admin.page')).SchoolAdminPage,
          ),
          staff(
            'session-reports',
            'school_admin',
            async () => (await import('./features/school-admin/school-admin.page')).SessionReportsPage,
          ),
          staff(
            'session-reports/:id',
            'school_admin',
            async () => (await import('./features/school-admin/school-admin.page')).SessionReportPage,
          ),
          // A program's list for today and its check-ins (issue 52): any staff role.
          staff(
            'programs',
            'front_queue_wrangler',
            async () => (await import('./features/programs/programs.page')).ProgramsPage,
          ),
          staff(
            'bus-map',
            'front_queue_wrangler',
            async () => (await import('./features/buses/staff-bus-map.page')).StaffBusMapPage,
          ),
          staff(
            'school-settings',
            'school_admin',
            async () => (await import('./features/school-settings/school-settings.page')).SchoolSettingsPage,
          ),
          staff(
            'print-placards',
            'school_admin',
            async () => (await import('./features/print-placards/print-placards.page')).PrintPlacardsPage,
          ),
          staff(
            'district-admin',
            'district_admin',
            async () => (await import('./features/districts/district-admin.page')).DistrictAdminPage,
          ),
          staff(
            'clever-integration',
            'district_admin',
            async () => (await import('./features/sis/clever-integration.page')).CleverIntegrationPage,
          ),
          staff(
            'super-admin',
            'super_admin',
            async () => (await import('./features/districts/super-admin.page')).SuperAdminPage,
          ),
          staff(
            'profile',
            undefined,
            async () => (await import('./features/profile/profile.page')).ProfilePage,
          ),
          staff(
            'settings',
            undefined,
            async () => (await import('./features/settings/settings.page')).SettingsPage,
          ),
        ],
      },
      open(
        'parent/invite',
        parentScreen(async () => (await import('./features/parent/invite-link.page')).InviteLinkPage),
      ),
      // "Forgot password?" (issue 50): ask for a link, and the link's page.
      open(
        'parent/forgot-password',
        parentScreen(async () => (await import('./features/parent/forgot-password.page')).ForgotPasswordPage),
      ),
      open(
        'parent/reset-password',
        parentScreen(async () => (await import('./features/parent/reset-password.page')).ResetPasswordPage),
      ),
      open(
        'invite/:code',
        parentScreen(async () => (await import('./features/parent/invite.page')).InvitePage),
      ),
      // The letters of the invites just made (their links live only in this tab): outside the shell, so a page prints only letters.
      open(
        'invite-letters',
        async () => (await import('./features/parent-invites/invite-letters.page')).InviteLettersPage,
      ),
      open('bus-driver', async () => (await import('./features/buses/bus-driver.page')).BusDriverPage),
      open('bus-tracking', async () => (await import('./features/buses/bus-tracking.page')).BusTrackingPage),
      open('display', async () => (await import('./features/display/display.page')).DisplayPage),
      open(
        'parent',
        parentScreen(async () => (await import('./features/parent/parent.page')).ParentPortalPage),
      ),
      open(
        'parent-login',
        parentScreen(async () => (await import('./features/parent/parent-login.page')).ParentLoginPage),
      ),
      open(
        'parent-dashboard',
        parentScreen(
          async () => (await import('./features/parent/parent-dashboard.page')).ParentDashboardPage,
        ),
      ),
      open('*', async () => (await import('./features/not-found/not-found.page')).NotFoundPage),
    ],
  },
];

const router = createBrowserRouter(appRoutes);

/**
 * Theme (from the stored preference) → toasts → data → live connection → router.
 * `<Notifications>` follows the specification: one toast at a time, 5 s, at most 420 px wide;
 * an answer to the user's own action goes before live announcements (lib/toasts.ts). Alerts
 * are not toasts: they have their own banner on the car-line screens.
 */
export function App() {
  const [queryClient] = useState(createQueryClient);
  useEffect(() => answersBeforeAnnouncements(), []);
  return (
    <AppThemeProvider>
      <Notifications limit={1} autoClose={5000} containerWidth={420} position="top-center" />
      <QueryClientProvider client={queryClient}>
        <LiveProvider>
          <RouterProvider router={router} />
        </LiveProvider>
      </QueryClientProvider>
    </AppThemeProvider>
  );
}
