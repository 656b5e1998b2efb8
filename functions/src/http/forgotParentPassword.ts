import { routes } from '@curbside/api';
import { clientAddress } from '../lib/auth';
import { httpHandler, Reply, siteOrigin } from '../lib/http';
import { requestPasswordReset } from '../services/password-resets';

/** `POST /api/auth/parent/forgot-password`: emails a reset link if a parent account has the address (202 either way). */
export const handler = httpHandler(
  routes.forgotParentPassword,
  async ({ body, event }) =>
    new Reply(await requestPasswordReset(body, clientAddress(event), siteOrigin(event)), { status: 202 }),
);
