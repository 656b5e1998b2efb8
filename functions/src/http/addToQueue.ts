import { routes } from '@curbside/api';
import { httpHandler, Reply } from '../lib/http';
import { requireUser } from '../services/auth';
import { addVehicle } from '../services/queue';

/** `POST /api/queue`: queues a vehicle (201); 409 when it is already in the queue. */
export const handler = httpHandler(
  routes.addToQueue,
  async ({ user, body }) => new Reply(await addVehicle(requireUser(user), body), { status: 201 }),
);
