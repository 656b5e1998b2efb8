import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { decideChange } from '../services/dismissal-changes';

/** `POST /api/dismissal-changes/{id}/approve`: the office approves a family's request. */
export const handler = httpHandler(routes.approveDismissalChange, async ({ user, params }) =>
  decideChange(requireUser(user), params.id, 'approve'),
);
