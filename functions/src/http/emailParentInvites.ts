import { routes } from '@curbside/api';
import { httpHandler, siteOrigin } from '../lib/http';
import { requireUser } from '../services/auth';
import { emailInvites } from '../services/parent-invites';

/** `POST /api/parent-invites/email`: invites for the guardians with an email address, each sent its link. */
export const handler = httpHandler(routes.emailParentInvites, async ({ user, body, event }) =>
  emailInvites(requireUser(user), body, siteOrigin(event)),
);
