import { routes } from '@curbside/api';
import { httpHandler, Reply } from '../lib/http';
import { requireUser } from '../services/auth';
import { addVehicle, earlyAdd } from '../services/queue';

/** `POST /api/queue`: queues a vehicle (201); 409 when it is already in the queue (its first reads: `earlyAdd`). */
export const handler = httpHandler(
  routes.addToQueue,
  async ({ user, body, early }) =>
    new Reply(await addVehicle(requireUser(user), body, early), { status: 201 }),
  [],
  { early: earlyAdd },
);
