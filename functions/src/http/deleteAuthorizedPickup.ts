import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { removePickup } from '../services/authorized-pickups';

/** `DELETE /api/parent/authorized-pickups/{id}`: that adult may no longer collect the child. */
export const handler = httpHandler(routes.deleteAuthorizedPickup, async ({ user, params }) =>
  removePickup(requireUser(user), params.id),
);
