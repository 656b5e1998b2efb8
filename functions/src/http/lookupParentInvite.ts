import { routes } from '@curbside/api';
import { clientAddress } from '../lib/auth';
import { httpHandler } from '../lib/http';
import { lookupInvite } from '../services/parent-invites';

/** `GET /api/parent-invites/lookup?t=`: the school and child an invite link is for (throttled). */
export const handler = httpHandler(routes.lookupParentInvite, async ({ query, event }) =>
  lookupInvite(query.t, clientAddress(event)),
);
