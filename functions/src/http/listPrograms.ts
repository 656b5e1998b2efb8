import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { listPrograms } from '../services/programs';

/** `GET /api/programs`: the school's after-school programs. */
export const handler = httpHandler(routes.listPrograms, async ({ user, query }) =>
  listPrograms(requireUser(user), query.schoolId),
);
