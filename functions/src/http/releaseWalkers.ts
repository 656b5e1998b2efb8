import { routes } from '@curbside/api';
import type { WayRelease } from '@curbside/domain';
import { type EarlyReads, httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { releaseByWay, type WayReleaseReads, wayReleaseEarly } from '../services/way-releases';

const wayOf = (_input: unknown): WayRelease => ({ mode: 'walker' });

const early: EarlyReads<(typeof routes.releaseWalkers)['request'], WayReleaseReads> = wayReleaseEarly(wayOf);

/** `POST /api/walkers/release`: releases the present walkers of some classrooms, each once (its first reads beside the sign-in). */
export const handler = httpHandler(
  routes.releaseWalkers,
  async ({ user, body, early, ...input }) =>
    releaseByWay(requireUser(user), wayOf(input), body.classroomIds, early),
  [],
  { early },
);
