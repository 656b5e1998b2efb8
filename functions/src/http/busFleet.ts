import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { fleetOf } from '../services/buses';

/** `GET /api/buses`: the school's buses, for the driver page (driver link) or staff. */
export const handler = httpHandler(routes.busFleet, async ({ user, busLink }) => fleetOf({ user, busLink }));
