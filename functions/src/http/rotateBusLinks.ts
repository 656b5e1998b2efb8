import { routes } from '@curbside/api';
import { httpHandler, siteOrigin } from '../lib/http';
import { requireUser } from '../services/auth';
import { rotateLinks } from '../services/buses';

/** `POST /api/bus-links/rotate`: new links; the old ones and their open pages stop at once. */
export const handler = httpHandler(routes.rotateBusLinks, async ({ user, event }) =>
  rotateLinks(requireUser(user), siteOrigin(event)),
);
