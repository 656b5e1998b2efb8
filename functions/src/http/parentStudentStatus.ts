import { routes } from '@curbside/api';
import { type EarlyReads, httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { childrenStatus, knownPlanOf, type PollReads, pollReads } from '../services/parents';

/**
 * A poll's first reads, in the parent's sign-in read (one BatchGetItem) for a
 * parent whose last poll this instance answered (it has their plan):
 * `childrenStatus` uses them once that parent is the one signed in.
 */
const early: EarlyReads<(typeof routes.parentStudentStatus)['request'], PollReads> = (
  userId,
  _input,
  signIn,
) => {
  const plan = knownPlanOf(userId);
  if (!plan) return undefined;
  const reads = pollReads(userId, plan, signIn);
  // Unused when the sign-in fails: their failure is nobody's.
  reads.stillLinked?.catch(() => undefined);
  return Promise.resolve(reads);
};

/**
 * `GET /api/parent/students/status`: each linked child's pickup now (the
 * dashboard polls it every 30 s; its first reads go with the sign-in's: `early`).
 */
export const handler = httpHandler(
  routes.parentStudentStatus,
  async ({ user, early }) => childrenStatus(requireUser(user), early),
  [],
  { early },
);
