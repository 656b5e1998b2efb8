import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { endSession } from '../services/sessions';

/** `PUT /api/sessions/{id}/end`: ends the session. */
export const handler = httpHandler(routes.endSession, async ({ user, params }) =>
  endSession(requireUser(user), params.id),
);
