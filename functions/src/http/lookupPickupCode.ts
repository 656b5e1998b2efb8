import { routes } from '@curbside/api';
import { clientAddress } from '../lib/auth';
import { httpHandler } from '../lib/http';
import { lookupCode } from '../services/pickup-codes';

/** `GET /api/pickup-codes/lookup/{code}`: what an invite link shows before sign-in (throttled). */
export const handler = httpHandler(routes.lookupPickupCode, async ({ params, event }) =>
  lookupCode(params.code, clientAddress(event)),
);
