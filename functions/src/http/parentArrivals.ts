import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { arrivalOpenings } from '../services/arrivals';
import { requireUser } from '../services/auth';

/** `GET /api/parent/arrivals`: where the family may announce now, with their own arrival there. */
export const handler = httpHandler(routes.parentArrivals, async ({ user }) =>
  arrivalOpenings(requireUser(user)),
);
