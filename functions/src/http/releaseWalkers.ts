import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { releaseByWay } from '../services/way-releases';

/** `POST /api/walkers/release`: releases the present walkers of some classrooms, each once. */
export const handler = httpHandler(routes.releaseWalkers, async ({ user, body }) =>
  releaseByWay(requireUser(user), { mode: 'walker' }, body.classroomIds),
);
