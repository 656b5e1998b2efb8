import { routes } from '@curbside/api';
import { httpHandler, Reply } from '../lib/http';
import { requireUser } from '../services/auth';
import { requestChange } from '../services/dismissal-changes';

/** `POST /api/dismissal-changes`: a family's request or the office's entry (201). */
export const handler = httpHandler(
  routes.createDismissalChange,
  async ({ user, query, body }) =>
    new Reply(await requestChange(requireUser(user), body, query.schoolId), { status: 201 }),
);
