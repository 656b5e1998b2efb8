import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { dismissAlert, earlyAlert } from '../services/alerts';
import { requireUser } from '../services/auth';

/** `PUT /api/alerts/{id}/dismiss`: dismisses an alert. */
export const handler = httpHandler(
  routes.dismissAlert,
  async ({ user, params, early }) => dismissAlert(requireUser(user), params.id, early),
  [],
  { early: earlyAlert },
);
