import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { releaseByWay } from '../services/way-releases';

/** `POST /api/buses/{id}/release`: sends a bus's riders of some classrooms to it, each once. */
export const handler = httpHandler(routes.releaseBusRiders, async ({ user, params, body }) =>
  releaseByWay(requireUser(user), { mode: 'bus', vehicleId: params.id }, body.classroomIds),
);
