import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { setEntryStatus } from '../services/queue';
import { earlyEntry } from '../services/scope';

/** `PUT /api/queue/{id}/status`: moves an entry along its allowed transitions. */
export const handler = httpHandler(
  routes.setQueueStatus,
  async ({ user, params, body, early }) =>
    setEntryStatus(requireUser(user), params.id, body.status, body.confirmUnreleased === true, early),
  [],
  { early: earlyEntry },
);
