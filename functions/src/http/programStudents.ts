import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { programList } from '../services/way-releases';

/** `GET /api/programs/{id}/students?date=`: a program's list of a day, with who was sent and checked in. */
export const handler = httpHandler(routes.programStudents, async ({ user, params, query }) =>
  programList(requireUser(user), params.id, query.date),
);
