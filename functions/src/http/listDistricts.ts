import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { listDistricts } from '../services/districts';

/** `GET /api/districts`: a super admin's districts (all), a district admin's (their own), with their schools. */
export const handler = httpHandler(routes.listDistricts, async ({ user }) =>
  listDistricts(requireUser(user)),
);
