import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { decideChange } from '../services/dismissal-changes';

/** `POST /api/dismissal-changes/{id}/deny`: the office denies a family's request (the default stands). */
export const handler = httpHandler(routes.denyDismissalChange, async ({ user, params, body }) =>
  decideChange(requireUser(user), params.id, 'deny', body.reason),
);
