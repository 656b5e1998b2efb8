import { routes } from '@curbside/api';
import type { WayRelease } from '@curbside/domain';
import { type EarlyReads, httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { releaseByWay, type WayReleaseReads, wayReleaseEarly } from '../services/way-releases';

const wayOf = ({ params }: { params: { id: number } }): WayRelease => ({ mode: 'bus', vehicleId: params.id });

const early: EarlyReads<(typeof routes.releaseBusRiders)['request'], WayReleaseReads> =
  wayReleaseEarly(wayOf);

/** `POST /api/buses/{id}/release`: sends a bus's riders of some classrooms to it, each once (its first reads beside the sign-in). */
export const handler = httpHandler(
  routes.releaseBusRiders,
  async ({ user, body, early, ...input }) =>
    releaseByWay(requireUser(user), wayOf(input), body.classroomIds, early),
  [],
  { early },
);
