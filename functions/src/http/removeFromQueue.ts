import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { removeEntry } from '../services/queue';

/** `DELETE /api/queue/{id}`: removes a vehicle (or dismisses an overflow entry). */
export const handler = httpHandler(routes.removeFromQueue, async ({ user, params }) =>
  removeEntry(requireUser(user), params.id),
);
