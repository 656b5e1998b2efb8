import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { positionsOf } from '../services/buses';

/** `GET /api/buses/positions`: the school's buses on the map now (map link or staff). */
export const handler = httpHandler(routes.busPositions, async ({ user, busLink }) =>
  positionsOf({ user, busLink }),
);
