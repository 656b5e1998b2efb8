import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { updateEntry } from '../services/queue';

/** `PUT /api/queue/{id}`: back to waiting or to overflow, out of its batch. */
export const handler = httpHandler(routes.updateQueueEntry, async ({ user, params, body }) =>
  updateEntry(requireUser(user), params.id, body),
);
