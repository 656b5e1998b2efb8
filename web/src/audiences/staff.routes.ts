import type { StaffRole } from '@curbside/domain';
import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import type { RouteAccess } from '../features/shell/access';
import { askWhoIsSignedIn } from './start';

/** A signed-in screen under the shell (header and footer), guarded by its minimum role. */
const staff = (path: string, minRole: StaffRole | undefined, Component: () => Promise<ComponentType>) => ({
  path,
  handle: (minRole ? { minRole } : {}) satisfies RouteAccess,
  lazy: { Component },
});

/**
 * The staff audience (ADR 0026): every screen under the staff shell, in one live connection
 * (`LiveLayout`), and the invite letters. Its code (the shell, the car-line queries, the charts)
 * loads only when one of these routes matches: a page of another audience never loads it. A
 * new staff screen is a `staff(...)` entry under the shell.
 */
export const staffRoutes: RouteObject = {
  id: 'staff',
  loader: askWhoIsSignedIn,
  lazy: { Component: async () => (await import('../features/live/live.layout')).LiveLayout },
  children: [
    {
      lazy: {
        Component: async () => (await import('../features/shell/shell.layout')).ShellLayout,
        loader: async () => (await import('../features/shell/shell.layout')).shellLoader,
      },
      children: [
        staff(
          'front-queue',
          'front_queue_wrangler',
          async () => (await import('../features/front-queue/front-queue.page')).FrontQueuePage,
        ),
        staff(
          'back-queue',
          'back_queue_wrangler',
          async () => (await import('../features/back-queue/back-queue.page')).BackQueuePage,
        ),
        staff(
          'teacher',
          'teacher',
          async () => (await import('../features/teacher/teacher.page')).TeacherPage,
        ),
        staff(
          'school-admin',
          'school_admin',
          async () => (await import('../features/school-admin/school-admin.page')).SchoolAdminPage,
        ),
        staff(
          'session-reports',
          'school_admin',
          async () => (await import('../features/school-admin/school-admin.page')).SessionReportsPage,
        ),
        staff(
          'session-reports/:id',
          'school_admin',
          async () => (await import('../features/school-admin/school-admin.page')).SessionReportPage,
        ),
        // A program's list for today and its check-ins (issue 52): any staff role.
        staff(
          'programs',
          'front_queue_wrangler',
          async () => (await import('../features/programs/programs.page')).ProgramsPage,
        ),
        staff(
          'bus-map',
          'front_queue_wrangler',
          async () => (await import('../features/buses/staff-bus-map.page')).StaffBusMapPage,
        ),
        staff(
          'school-settings',
          'school_admin',
          async () => (await import('../features/school-settings/school-settings.page')).SchoolSettingsPage,
        ),
        staff(
          'print-placards',
          'school_admin',
          async () => (await import('../features/print-placards/print-placards.page')).PrintPlacardsPage,
        ),
        staff(
          'district-admin',
          'district_admin',
          async () => (await import('../features/districts/district-admin.page')).DistrictAdminPage,
        ),
        staff(
          'clever-integration',
          'district_admin',
          async () => (await import('../features/sis/clever-integration.page')).CleverIntegrationPage,
        ),
        staff(
          'super-admin',
          'super_admin',
          async () => (await import('../features/districts/super-admin.page')).SuperAdminPage,
        ),
        staff(
          'profile',
          undefined,
          async () => (await import('../features/profile/profile.page')).ProfilePage,
        ),
        staff(
          'settings',
          undefined,
          async () => (await import('../features/settings/settings.page')).SettingsPage,
        ),
      ],
    },
    // The letters of the invites just made (their links live only in this tab): outside the shell, so a page prints only letters.
    {
      path: 'invite-letters',
      lazy: {
        Component: async () =>
          (await import('../features/parent-invites/invite-letters.page')).InviteLettersPage,
      },
    },
  ],
};
