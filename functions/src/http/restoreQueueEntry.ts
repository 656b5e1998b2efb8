import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { earlyRestore, restoreEntry } from '../services/queue';

/** `POST /api/queue/{id}/restore`: Undo of a removal or a pickup, within 60 s (its first read: `earlyRestore`). */
export const handler = httpHandler(
  routes.restoreQueueEntry,
  async ({ user, params, early }) => restoreEntry(requireUser(user), params.id, early),
  [],
  { early: earlyRestore },
);
