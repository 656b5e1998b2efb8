import { routes } from '@curbside/api';
import { knownSchoolOf } from '../lib/auth';
import { type EarlyReads, httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { addNextToBatch, type BatchReads, batchReads } from '../services/batches';

/**
 * Add-to-batch's first reads (the batch, in the sign-in's own read; the line of a batch seen before
 * beside it), started with the caller's sign-in for a staff member this instance signed in at a school.
 */
const early: EarlyReads<(typeof routes.addToBatch)['request'], BatchReads> = (userId, { params }, signIn) => {
  if (knownSchoolOf(userId) === undefined) return undefined;
  const reads = batchReads(params.id, signIn);
  // Unused when the sign-in fails: their failure is nobody's.
  reads.batch.catch(() => undefined);
  return Promise.resolve(reads);
};

/**
 * `POST /api/batches/{id}/vehicles`: add-to-batch, the first waiting vehicle
 * of the batch's type (its first reads: `early`).
 */
export const handler = httpHandler(
  routes.addToBatch,
  async ({ user, params, early }) => addNextToBatch(requireUser(user), params.id, early),
  [],
  { early },
);
