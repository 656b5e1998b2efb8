import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { removeEntry } from '../services/queue';
import { earlyEntry } from '../services/scope';

/** `DELETE /api/queue/{id}`: a vehicle leaves the queue, saying why (picked up, left, removed). */
export const handler = httpHandler(
  routes.removeFromQueue,
  async ({ user, params, body, early }) =>
    removeEntry(requireUser(user), params.id, body.reason, body.confirmUnreleased === true, early),
  [],
  { early: earlyEntry },
);
