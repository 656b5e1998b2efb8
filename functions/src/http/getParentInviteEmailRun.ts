import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { mailRunProgress } from '../services/mail-runs';

/** `GET /api/parent-invites/email/{id}`: how an emailing of invites stands (sent, failed, done). */
export const handler = httpHandler(routes.getParentInviteEmailRun, async ({ user, params }) =>
  mailRunProgress(requireUser(user), params.id),
);
