import { routes } from '@curbside/api';
import { httpHandler, Reply } from '../lib/http';
import { requireUser } from '../services/auth';
import { createSession } from '../services/sessions';

/** `POST /api/sessions`: starts a pickup session (201); 409 while one is active. */
export const handler = httpHandler(
  routes.createSession,
  async ({ user, body }) => new Reply(await createSession(requireUser(user), body), { status: 201 }),
);
