import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { settingsOf } from '../services/school-settings';

/** `GET /api/schools/{id}/settings`: the school's settings as in force. */
export const handler = httpHandler(routes.getSchoolSettings, async ({ user, params }) =>
  settingsOf(requireUser(user), params.id),
);
