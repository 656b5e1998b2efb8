import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { releaseByWay } from '../services/way-releases';

/** `POST /api/programs/{id}/release`: sends a program's children of some classrooms to it, each once. */
export const handler = httpHandler(routes.releaseToProgram, async ({ user, params, body }) =>
  releaseByWay(requireUser(user), { mode: 'program', programId: params.id }, body.classroomIds),
);
