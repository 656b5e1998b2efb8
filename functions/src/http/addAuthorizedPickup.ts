import { routes } from '@curbside/api';
import { httpHandler, Reply } from '../lib/http';
import { requireUser } from '../services/auth';
import { addPickup } from '../services/authorized-pickups';

/** `POST /api/parent/authorized-pickups`: another adult may collect the child (201). */
export const handler = httpHandler(
  routes.addAuthorizedPickup,
  async ({ user, body }) => new Reply(await addPickup(requireUser(user), body), { status: 201 }),
);
