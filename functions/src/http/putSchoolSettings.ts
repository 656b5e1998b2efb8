import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { saveSettings } from '../services/school-settings';

/** `PUT /api/schools/{id}/settings`: new settings; the school's screens are told at once. */
export const handler = httpHandler(routes.putSchoolSettings, async ({ user, params, body }) =>
  saveSettings(requireUser(user), params.id, body),
);
