import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { parentPickups } from '../services/authorized-pickups';

/** `GET /api/parent/authorized-pickups`: the adults allowed to collect the parent's children. */
export const handler = httpHandler(routes.parentAuthorizedPickups, async ({ user }) =>
  parentPickups(requireUser(user)),
);
