import type { RouteObject } from 'react-router';
import { Outlet } from 'react-router';
import { askWhetherDemo, askWhoIsSignedIn } from './start';

/**
 * The parent portal (ADR 0026): the landing, the sign-in, its Forgot password and reset pages, the invite links and the dashboard,
 * on a parent's phone. Its layout starts the parent texts (English or Spanish) beside the
 * screen's own code, and nothing of the staff audience loads: no staff shell, no car-line
 * queries, no charts. The dashboard follows its children live (`ParentLiveLayout`); the other
 * screens open no live connection. A new parent screen is an entry here.
 */
export const parentRoutes: RouteObject = {
  id: 'parent',
  loader: askWhoIsSignedIn,
  lazy: {
    Component: async () => {
      const { startParentTexts } = await import('../features/parent/i18n');
      await startParentTexts();
      return Outlet;
    },
  },
  children: [
    {
      path: 'parent',
      lazy: { Component: async () => (await import('../features/parent/parent.page')).ParentPortalPage },
    },
    {
      path: 'parent-login',
      loader: askWhetherDemo,
      lazy: { Component: async () => (await import('../features/parent/parent-login.page')).ParentLoginPage },
    },
    {
      path: 'parent/invite',
      lazy: {
        Component: async () => (await import('../features/parent/invite-link.page')).InviteLinkPage,
        loader: async () => (await import('../features/parent/invite-link.page')).inviteLinkLoader,
      },
    },
    // "Forgot password?" (issue 50): ask for a link, and the link's page.
    {
      path: 'parent/forgot-password',
      lazy: {
        Component: async () => (await import('../features/parent/forgot-password.page')).ForgotPasswordPage,
      },
    },
    {
      path: 'parent/reset-password',
      lazy: {
        Component: async () => (await import('../features/parent/reset-password.page')).ResetPasswordPage,
      },
    },
    {
      path: 'invite/:code',
      lazy: {
        Component: async () => (await import('../features/parent/invite.page')).InvitePage,
        loader: async () => (await import('../features/parent/invite.page')).inviteLoader,
      },
    },
    {
      lazy: { Component: async () => (await import('../features/live/live.layout')).ParentLiveLayout },
      children: [
        {
          path: 'parent-dashboard',
          lazy: {
            Component: async () =>
              (await import('../features/parent/parent-dashboard.page')).ParentDashboardPage,
            loader: async () => (await import('../features/parent/parent-dashboard.page')).dashboardLoader,
          },
        },
      ],
    },
  ],
};
