import { routes } from '@curbside/api';
import { clientAddress } from '../lib/auth';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { useCode } from '../services/pickup-codes';

/** `POST /api/parent/link-student`: the parent dashboard's link by code. */
export const handler = httpHandler(routes.linkStudent, async ({ user, body, event }) =>
  useCode(requireUser(user), body.pickupCode, clientAddress(event)),
);
