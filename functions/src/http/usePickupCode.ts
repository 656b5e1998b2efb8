import { routes } from '@curbside/api';
import { clientAddress } from '../lib/auth';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { useCode } from '../services/pickup-codes';

/** `POST /api/pickup-codes/use`: a signed-in parent links to the child (throttled). */
export const handler = httpHandler(routes.usePickupCode, async ({ user, body, event }) =>
  useCode(requireUser(user), body.code, clientAddress(event)),
);
