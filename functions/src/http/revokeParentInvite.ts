import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { revokeInvite } from '../services/parent-invites';

/** `DELETE /api/parent-invites/{id}`: the link stops working. */
export const handler = httpHandler(routes.revokeParentInvite, async ({ user, params }) =>
  revokeInvite(requireUser(user), params.id),
);
