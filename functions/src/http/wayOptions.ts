import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { rosterSchool } from '../services/roster/scope';
import { wayOptionsOf } from '../services/ways-home';

/** `GET /api/ways-home/options`: the school's buses and programs, the ways home it offers. */
export const handler = httpHandler(routes.wayOptions, async ({ user, query }) =>
  wayOptionsOf((await rosterSchool(requireUser(user), query.schoolId, 'read')).id),
);
