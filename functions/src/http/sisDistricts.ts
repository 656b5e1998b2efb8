import { routes } from '@curbside/api';
import { httpHandler } from '../lib/http';
import { requireUser } from '../services/auth';
import { listSisDistricts } from '../services/sis/districts';

/** `GET /api/clever/districts`: the Clever districts the caller may import from. */
export const handler = httpHandler(routes.sisDistricts, async ({ user }) =>
  listSisDistricts(requireUser(user)),
);
