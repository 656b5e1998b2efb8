import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { sessionReleases } from '../services/teacher';

/** `GET /api/sessions/{id}/releases`: the session's released and picked-up students (queue badges). */
export const handler = httpHandler(routes.sessionReleases, async ({ user, params }) =>
  sessionReleases(requireUser(user), params.id),
);
