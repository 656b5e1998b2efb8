import { routes } from '@curbside/api';
import { knownSchoolOf } from '../lib/auth';
import { type EarlyReads, httpHandler, Reply } from '../lib/http';
import { requireUser } from '../services/auth';
import { type AddReads, addReads, addVehicle } from '../services/queue';

/**
 * Queueing a vehicle's reads (the session and the vehicle in the sign-in's own
 * BatchGetItem), started with the caller's sign-in for a staff
 * member this instance signed in at a school, by the body as validated
 * (`addVehicle` uses them only for the same school, session and vehicle).
 */
const early: EarlyReads<(typeof routes.addToQueue)['request'], AddReads> = (userId, { body }, signIn) => {
  const schoolId = knownSchoolOf(userId);
  if (schoolId === undefined) return undefined;
  const { sessionId, vehicleType, vehicleNumber } = body;
  return addReads(schoolId, sessionId, vehicleType, vehicleNumber, signIn).then((reads) => ({
    schoolId,
    sessionId,
    vehicleType,
    vehicleNumber,
    reads,
  }));
};

/** `POST /api/queue`: queues a vehicle (201); 409 when it is already in the queue (its first reads: `early`). */
export const handler = httpHandler(
  routes.addToQueue,
  async ({ user, body, early }) =>
    new Reply(await addVehicle(requireUser(user), body, early), { status: 201 }),
  [],
  { early },
);
