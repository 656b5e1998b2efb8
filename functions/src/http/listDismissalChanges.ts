import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { listChanges } from '../services/dismissal-changes';

/** `GET /api/dismissal-changes?date=|from=`: a day's changes, a student's, or the office's queue. */
export const handler = httpHandler(routes.listDismissalChanges, async ({ user, query }) =>
  listChanges(requireUser(user), query),
);
