import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { acknowledgeAlert, earlyAlert } from '../services/alerts';
import { requireUser } from '../services/auth';

/** `POST /api/alerts/{id}/acknowledge`: "I'm on it", once per staff member. */
export const handler = httpHandler(
  routes.acknowledgeAlert,
  async ({ user, params, early }) => acknowledgeAlert(requireUser(user), params.id, early),
  [],
  { early: earlyAlert },
);
