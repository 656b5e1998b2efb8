import { routes } from '@curbside/api';
import { httpHandler, Reply } from '../lib/http';
import { announceArrival } from '../services/arrivals';
import { requireUser } from '../services/auth';

/** `POST /api/parent/arrivals`: a parent's "I'm on my way" or "I'm here" (201, their own arrival). */
export const handler = httpHandler(
  routes.announceArrival,
  async ({ user, body }) => new Reply(await announceArrival(requireUser(user), body), { status: 201 }),
);
