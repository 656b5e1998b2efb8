import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { listSchools } from '../services/districts';

/** `GET /api/schools`: the schools the caller may see. */
export const handler = httpHandler(routes.listSchools, async ({ user }) => listSchools(requireUser(user)));
