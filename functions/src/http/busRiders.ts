import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { busRiders } from '../services/way-releases';

/** `GET /api/buses/{id}/riders?date=`: the students whose way home that day is this bus. */
export const handler = httpHandler(routes.busRiders, async ({ user, params, query }) =>
  busRiders(requireUser(user), params.id, query.date),
);
