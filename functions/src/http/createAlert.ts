import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { toggleAlert } from '../services/alerts';
import { requireUser } from '../services/auth';

/** `POST /api/alerts`: raises an alert, or dismisses the same one (`dismissed: true`). */
export const handler = httpHandler(routes.createAlert, async ({ user, body }) =>
  toggleAlert(requireUser(user), body),
);
