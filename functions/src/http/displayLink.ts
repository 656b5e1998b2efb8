import { routes } from '@curbside/api';
import { httpHandler, siteOrigin } from '../lib/http';
import { requireUser } from '../services/auth';
import { displayLinkOf } from '../services/display';

/** `GET /api/display-link`: the school's hallway display link. */
export const handler = httpHandler(routes.displayLink, async ({ user, event }) =>
  displayLinkOf(requireUser(user), siteOrigin(event)),
);
