import { routes } from '@curbside/api';
import { ssoStateCookie } from '../lib/auth';
import { httpHandler, Reply, siteOrigin } from '../lib/http';
import { SSO_STATE_COOKIE, SsoRefused, ssoFailurePage, startSso } from '../services/sso';

/**
 * `GET /api/auth/login` (the login screen's production sign-in, a browser
 * navigation): off to Clever's authorize page with a state bound to this
 * browser, or back to the login screen saying why not.
 */
export const handler = httpHandler(routes.ssoLogin, async ({ event }) => {
  try {
    const { location, state } = await startSso(siteOrigin(event));
    return new Reply(undefined, {
      status: 302,
      headers: { location },
      cookies: [ssoStateCookie(event, SSO_STATE_COOKIE, state)],
    });
  } catch (error) {
    if (error instanceof SsoRefused)
      return new Reply(undefined, { status: 302, headers: { location: ssoFailurePage(error.reason) } });
    throw error;
  }
});
