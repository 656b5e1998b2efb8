import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { restoreEntry } from '../services/queue';

/** `POST /api/queue/{id}/restore`: Undo of a removal or a pickup, within 60 s. */
export const handler = httpHandler(routes.restoreQueueEntry, async ({ user, params }) =>
  restoreEntry(requireUser(user), params.id),
);
