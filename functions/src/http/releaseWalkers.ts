import { routes } from '@curbside/api';
import type { WayRelease } from '@curbside/domain';
import { knownSchoolOf } from '../lib/auth';
import { type EarlyReads, httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { releaseByWay, startWayReleaseReads, type WayReleaseReads } from '../services/way-releases';

const wayOf = (): WayRelease => ({ mode: 'walker' });

/**
 * The release's first reads in the caller's sign-in read (one BatchGetItem),
 * and the classrooms' students and the day's changes beside it, for a staff
 * member this instance signed in at a school (`releaseByWay` uses them when
 * the signed-in user is of that school).
 */
const early: EarlyReads<(typeof routes.releaseWalkers)['request'], WayReleaseReads> = (
  userId,
  { body },
  signIn,
) => {
  const schoolId = knownSchoolOf(userId);
  if (schoolId === undefined) return undefined;
  return Promise.resolve(startWayReleaseReads(schoolId, wayOf(), body.classroomIds, signIn));
};

/** `POST /api/walkers/release`: releases the present walkers of some classrooms, each once (its first reads: `early`). */
export const handler = httpHandler(
  routes.releaseWalkers,
  async ({ user, body, early }) => releaseByWay(requireUser(user), wayOf(), body.classroomIds, early),
  [],
  { early },
);
