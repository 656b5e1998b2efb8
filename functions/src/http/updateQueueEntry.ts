import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { updateEntry } from '../services/queue';
import { earlyEntry } from '../services/scope';

/** `PUT /api/queue/{id}`: back to waiting or to overflow, out of its batch. */
export const handler = httpHandler(
  routes.updateQueueEntry,
  async ({ user, params, body, early }) => updateEntry(requireUser(user), params.id, body, early),
  [],
  { early: earlyEntry },
);
