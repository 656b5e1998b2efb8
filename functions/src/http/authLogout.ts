import { routes } from '@curbside/api';
import { clearedSessionCookie, SESSION_COOKIE } from '../lib/auth';
import { httpHandler, Reply } from '../lib/http';
import { signOut } from '../services/auth';

/** `authLogout`: revokes the session record and clears the cookie. */
export const handler = httpHandler(routes.authLogout, async ({ cookies, event }) => {
  await signOut(cookies[SESSION_COOKIE]);
  return new Reply({ ok: true } as const, { cookies: [clearedSessionCookie(event)] });
});
