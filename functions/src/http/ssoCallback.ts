import { routes } from '@curbside/api';
import { signedInCookies, ssoStateCookie } from '../lib/auth';
import { httpHandler, Reply, siteOrigin } from '../lib/http';
import { log } from '../lib/log';
import { finishSso, SSO_STATE_COOKIE, SsoRefused, ssoFailurePage } from '../services/sso';

/**
 * `GET /api/auth/clever/callback`: the browser back from Clever. Signed in,
 * it goes to the home page; without a state (a sign-in started at Clever),
 * to start one here; refused, to the login screen with the reason (never a
 * 500 page). The state cookie is spent either way.
 */
export const handler = httpHandler(routes.ssoCallback, async ({ event, query, cookies }) => {
  const spent = ssoStateCookie(event, SSO_STATE_COOKIE, null);
  try {
    const signedIn = await finishSso(siteOrigin(event), query, cookies);
    if (signedIn === 'startOver') {
      return new Reply(undefined, {
        status: 302,
        headers: { location: routes.ssoLogin.path },
        cookies: [spent],
      });
    }
    return new Reply(undefined, {
      status: 302,
      headers: { location: '/' },
      cookies: [spent, ...signedInCookies(event, signedIn)],
    });
  } catch (error) {
    const reason = error instanceof SsoRefused ? error.reason : 'failed';
    if (!(error instanceof SsoRefused)) log('error', 'single sign-on failed', { error: String(error) });
    return new Reply(undefined, {
      status: 302,
      headers: { location: ssoFailurePage(reason) },
      cookies: [spent],
    });
  }
});
