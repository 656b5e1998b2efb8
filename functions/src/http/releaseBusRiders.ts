import { routes } from '@curbside/api';
import type { WayRelease } from '@curbside/domain';
import { knownSchoolOf } from '../lib/auth';
import { type EarlyReads, httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { releaseByWay, startWayReleaseReads, type WayReleaseReads } from '../services/way-releases';

const wayOf = (params: { id: number }): WayRelease => ({ mode: 'bus', vehicleId: params.id });

/**
 * The release's first reads in the caller's sign-in read (one BatchGetItem),
 * and the classrooms' students and the day's changes beside it, for a staff
 * member this instance signed in at a school (`releaseByWay` uses them when
 * the signed-in user is of that school).
 */
const early: EarlyReads<(typeof routes.releaseBusRiders)['request'], WayReleaseReads> = (
  userId,
  { params, body },
  signIn,
) => {
  const schoolId = knownSchoolOf(userId);
  if (schoolId === undefined) return undefined;
  return Promise.resolve(startWayReleaseReads(schoolId, wayOf(params), body.classroomIds, signIn));
};

/** `POST /api/buses/{id}/release`: sends a bus's riders of some classrooms to it, each once (its first reads: `early`). */
export const handler = httpHandler(
  routes.releaseBusRiders,
  async ({ user, params, body, early }) =>
    releaseByWay(requireUser(user), wayOf(params), body.classroomIds, early),
  [],
  { early },
);
