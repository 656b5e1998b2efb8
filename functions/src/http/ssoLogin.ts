import { routes } from '@curbside/api';
import { UnavailableError } from '@curbside/domain';
import { httpHandler } from '../lib/http';

/** `GET /api/auth/login`: single sign-on starts here once an identity provider is configured. */
export const handler = httpHandler(routes.ssoLogin, async () => {
  throw new UnavailableError(
    'Single sign-on is not configured for this deployment yet. Use the sandbox demo sign-in instead.',
  );
});
