import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { listParents } from '../services/roster/parents';

/** `GET /api/parents`: a page of the school's parents. */
export const handler = httpHandler(routes.listParents, async ({ user, query }) =>
  listParents(requireUser(user), query),
);
