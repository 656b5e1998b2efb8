import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { contactOf } from '../services/buses';

/** `GET /api/buses/contact`: the school's phone, for the driver page (driver link) or staff. */
export const handler = httpHandler(routes.busContact, async ({ user, busLink }) =>
  contactOf({ user, busLink }),
);
