import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { cancelChange } from '../services/dismissal-changes';

/** `DELETE /api/dismissal-changes/{id}`: cancelled by the parent who asked (before the cutoff) or staff. */
export const handler = httpHandler(routes.cancelDismissalChange, async ({ user, params }) =>
  cancelChange(requireUser(user), params.id),
);
