import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { setUserActive } from '../services/districts';

/** `PUT /api/users/{id}/active`: deactivates (signed out everywhere at once) or reactivates a staff user. */
export const handler = httpHandler(routes.setUserActive, async ({ user, params, body }) =>
  setUserActive(requireUser(user), params.id, body.active),
);
