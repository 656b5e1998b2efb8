import { routes } from '@curbside/api';
import { httpHandler, Reply, siteOrigin } from '../lib/http';
import { requireUser } from '../services/auth';
import { createInvites } from '../services/parent-invites';

/** `POST /api/parent-invites`: invites for students, a classroom or the whole school (201). */
export const handler = httpHandler(
  routes.createParentInvites,
  async ({ user, body, event }) =>
    new Reply(await createInvites(requireUser(user), body, siteOrigin(event)), { status: 201 }),
);
