import { routes } from '@curbside/api';
import { httpHandler, siteOrigin } from '../lib/http';
import { requireUser } from '../services/auth';
import { rotateDisplayLink } from '../services/display';

/** `POST /api/display-link/rotate`: a new display link; the old one and its open displays stop at once. */
export const handler = httpHandler(routes.rotateDisplayLink, async ({ user, event }) =>
  rotateDisplayLink(requireUser(user), siteOrigin(event)),
);
