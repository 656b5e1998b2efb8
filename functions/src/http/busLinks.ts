import { routes } from '@curbside/api';
import { httpHandler, siteOrigin } from '../lib/http';
import { requireUser } from '../services/auth';
import { linksOf } from '../services/buses';

/** `GET /api/bus-links`: the school's driver and map links. */
export const handler = httpHandler(routes.busLinks, async ({ user, event }) =>
  linksOf(requireUser(user), siteOrigin(event)),
);
